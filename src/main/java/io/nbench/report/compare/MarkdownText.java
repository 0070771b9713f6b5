package io.nbench.report.compare;

/**
 * Text from a result document (a combination's name, a file's path) made safe for GitHub-flavoured Markdown: a
 * pull request comment or a job summary must show it as written, and a backtick, a {@code |}, a line break or
 * {@code <script>} in it must not end its code span, split a table row, start a new block or reach the page as
 * HTML.
 */
final class MarkdownText {

    private MarkdownText() {
    }

    /**
     * A code span holding {@code text} literally: fenced by one backtick more than the longest run inside it (so no
     * run can close it), padded with a space where CommonMark would otherwise strip one or merge a backtick into
     * the fence; control characters and line separators written as {@code \\uXXXX} (a line break would end the
     * line the span is on). HTML inside a code span is text.
     */
    static String code(String text) {
        String visible = visible(text);
        if (visible.isEmpty()) {
            return "` `"; // `` would be two literal backticks
        }
        int longest = 0;
        int run = 0;
        for (int i = 0; i < visible.length(); i++) {
            run = visible.charAt(i) == '`' ? run + 1 : 0;
            longest = Math.max(longest, run);
        }
        String fence = "`".repeat(longest + 1);
        boolean pad = visible.startsWith("`") || visible.endsWith("`")
                || visible.startsWith(" ") && visible.endsWith(" ") && !visible.isBlank();
        return fence + (pad ? " " + visible + " " : visible) + fence;
    }

    /** One cell of a table row: a {@code |}, even inside a code span, would end the cell (GFM). */
    static String cell(String markdown) {
        return markdown.replace("|", "\\|");
    }

    private static String visible(String text) {
        StringBuilder b = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029') {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }
}
