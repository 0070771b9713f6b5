package io.nbench.report.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Names as Markdown code spans that no content can close early (CommonMark 0.31, section 6.1). */
class MarkdownTextTest {

    @Test
    void theFenceIsLongerThanAnyRunOfBackticksInside() {
        assertEquals("`impl=netty`", MarkdownText.code("impl=netty"));
        assertEquals("``a`b``", MarkdownText.code("a`b"));
        assertEquals("````a```b``c````", MarkdownText.code("a```b``c"));
        assertEquals("`<script>x</script>`", MarkdownText.code("<script>x</script>"), "HTML in a code span is text");
    }

    @Test
    void aBacktickOrSpacesAtAnEndArePaddedSoTheyStayContent() {
        assertEquals("`` `a ``", MarkdownText.code("`a"));
        assertEquals("`` a` ``", MarkdownText.code("a`"));
        // CommonMark strips one space from each end when both ends have one: pad so both stay.
        assertEquals("`  a  `", MarkdownText.code(" a "));
        assertEquals("` `", MarkdownText.code(""));
        assertEquals("`   `", MarkdownText.code("   "), "only spaces are never stripped");
    }

    @Test
    void lineBreaksAndControlCharactersAreWrittenAsEscapes() {
        assertEquals("`a\\u000a# b\\u000d\\u2028`", MarkdownText.code("a\n# b\r\u2028"));
    }

    @Test
    void aPipeInATableCellIsEscapedEvenInACodeSpan() {
        assertEquals("`a\\|b`", MarkdownText.cell("`a|b`"));
    }
}
