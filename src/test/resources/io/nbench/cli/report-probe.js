// Test instrumentation for HtmlReportTest, put at the top of a copy of the page: it keeps every chart the page
// creates (by wrapping the uPlot the page defines next, the page itself exposing nothing), and once the page has
// drawn them reads what a reader sees from the rendered DOM and the charts' laid-out axes, flips the latency-axis
// switch, reads again, and leaves it all as JSON in <script id="nbench-probe">.
(function () {
  "use strict";
  const instances = [];
  let real;
  Object.defineProperty(window, "uPlot", {
    configurable: true,
    get: () => real,
    set: v => {
      const wrapped = function (opts, data, target) { const u = new v(opts, data, target); instances.push(u); return u; };
      Object.assign(wrapped, v);
      real = wrapped;
    },
  });
  const text = e => e ? e.textContent.replace(/\s+/g, " ").trim() : null;
  const measure = document.createElement("canvas").getContext("2d");

  function charts() {
    return instances.filter(u => u.root.isConnected).map(u => {
      const holder = u.root.closest("[data-kind]");
      const y = u.axes[1];
      measure.font = y.font[0];
      const labels = (y._values || []).filter(v => v !== null && v !== undefined).map(String);
      return {
        kind: holder ? holder.getAttribute("data-kind") : null,
        title: holder ? text(holder.querySelector(".chart-title")) : null,
        width: u.root.getBoundingClientRect().width,
        yDistr: u.scales.y.distr,
        xValues: (u.axes[0]._values || []).filter(v => v !== null).map(String),
        yValues: labels,
        yAxisWidth: y._size,
        yTickLabelSpace: y._size - y.gap - (y.ticks && y.ticks.show !== false ? y.ticks.size : 0),
        yWidestTickLabel: Math.max(0, ...labels.map(l => measure.measureText(l).width)),
        legend: Array.from(u.root.querySelectorAll(".u-legend .u-value")).map(text),
        // What is drawn, for the curve's test: each series' label, and the data as uPlot holds it (x first).
        series: u.series.map(sr => sr.label),
        data: holder && holder.getAttribute("data-kind") === "knee" ? u.data : undefined,
        // Each series' points as pixels in the plot area (null where no value), so a test sees them inside it.
        inside: holder && holder.getAttribute("data-kind") === "knee" ? u.series.slice(1).map((sr, i) => u.data[i + 1]
            .map((v, k) => v === null || v === undefined ? null : (() => { const x = u.valToPos(u.data[0][k], "x");
              const y = u.valToPos(v, "y"); return x >= 0 && x <= u.bbox.width / devicePixelRatio + 1
                && y >= 0 && y <= u.bbox.height / devicePixelRatio + 1; })())) : undefined,
      };
    });
  }

  function tables(root) {
    return root ? Array.from(root.querySelectorAll("table")).map(t => Array.from(t.rows).map(r => Array.from(r.cells).map(c =>
        ({ tag: c.tagName.toLowerCase(), text: text(c), mean: text(c.querySelector(".mean")), ratio: text(c.querySelector(".ratio")) })))) : [];
  }

  /** The combination's heading a part of the files' section is under. */
  function heading(e) {
    let h = e.previousElementSibling;
    while (h && h.tagName !== "H3") { h = h.previousElementSibling; }
    return h;
  }

  function collect() {
    const style = getComputedStyle(document.body);
    return {
      contentWidth: document.body.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight),
      charts: charts(),
      verdicts: Array.from(document.querySelectorAll("#verdicts p")).map(text),
      notCompared: Array.from(document.querySelectorAll("#not-compared li")).map(text),
      summaryText: text(document.getElementById("summary")),
      comparisonText: text(document.getElementById("comparison")),
      comparisonTables: tables(document.getElementById("comparison")),
      fileTables: Array.from(document.querySelectorAll("#files > table")).map(t => tables({ querySelectorAll: () => [t] })[0]),
      statusTables: Array.from(document.querySelectorAll("#files > table.statuses")).map(t =>
          ({ caption: text(t.caption), combination: text(heading(t)),
             rows: Array.from(t.rows).map(r => Array.from(r.cells).map(text)),
             marked: Array.from(t.rows).map(r => r.cells[0].className === "FAIL") })),
    };
  }

  function whenDrawn() {
    if (!document.body || !document.body.hasAttribute("data-charts")) {
      setTimeout(whenDrawn, 50);
      return;
    }
    const result = { before: collect() };
    const toggle = document.getElementById("log-latency");
    if (toggle) {
      toggle.checked = !toggle.checked;
      toggle.dispatchEvent(new Event("change"));
      result.afterToggle = collect();
    }
    const out = document.createElement("script");
    out.type = "application/json";
    out.id = "nbench-probe";
    out.textContent = JSON.stringify(result);
    document.body.append(out);
  }
  setTimeout(whenDrawn, 0);
})();
