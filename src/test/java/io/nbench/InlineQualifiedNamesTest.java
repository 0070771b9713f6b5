package io.nbench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Code names a type by its simple name, imported at the top: a reader sees what a file depends on in one place, and
 * {@code LayeringTest} reads the same imports. A qualified name in code is allowed only where the simple name is
 * taken in that file (imported from elsewhere, declared there, a class of the file's own package, or a second type
 * of that name used beside it). Comments, javadoc and strings are not code. Issue 39: 143 such names grew to 210
 * over a round without a gate; {@code dev/qualified-names-to-imports.py FILE...} makes the change (an import and
 * the simple name).
 */
class InlineQualifiedNamesTest {

    private static final Pattern QUALIFIED =
            Pattern.compile("(?<![\\w.@\"])((?:java|javax|io|org|com|jdk|sun)\\.(?:[a-z_][a-z0-9_]*\\.)+)([A-Z]\\w*)");
    private static final Pattern STRING = Pattern.compile("\"(?:\\\\.|[^\"\\\\])*\"");
    private static final Pattern IMPORT = Pattern.compile("^import (?!static )([\\w.]+);", Pattern.MULTILINE);
    private static final Pattern DECLARED = Pattern.compile("\\b(?:class|interface|enum|record)\\s+([A-Z]\\w*)");
    private static final Pattern PACKAGE = Pattern.compile("^package ([\\w.]+);", Pattern.MULTILINE);

    @Test
    void codeNamesTypesByTheirImportedSimpleNames() throws IOException {
        List<String> found = new ArrayList<>();
        for (String root : List.of("src/main/java", "src/test/java")) {
            try (Stream<Path> files = Files.walk(Path.of(root))) {
                for (Path f : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                    found.addAll(qualifiedNames(Path.of(root), f));
                }
            }
        }
        assertEquals(List.of(), found, "qualified names in code where the simple name is free: import them");
    }

    /** The lines of {@code file} that name a type qualified where its simple name would do. */
    static List<String> qualifiedNames(Path root, Path file) throws IOException {
        String source = Files.readString(file);
        Matcher pkg = PACKAGE.matcher(source);
        String ownPackage = pkg.find() ? pkg.group(1) : "";
        Map<String, String> imported = new HashMap<>();
        for (Matcher m = IMPORT.matcher(source); m.find(); ) {
            String name = m.group(1);
            imported.put(name.substring(name.lastIndexOf('.') + 1), name);
        }
        Set<String> declared = new HashSet<>();
        for (Matcher m = DECLARED.matcher(source); m.find(); ) {
            declared.add(m.group(1));
        }
        Set<String> samePackage = new HashSet<>();
        Path dir = root.resolve(ownPackage.replace('.', '/'));
        if (Files.isDirectory(dir)) {
            try (Stream<Path> siblings = Files.list(dir)) {
                siblings.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".java"))
                        .forEach(n -> samePackage.add(n.substring(0, n.length() - 5)));
            }
        }
        String[] lines = source.split("\n", -1);
        Map<String, Set<String>> bySimpleName = new HashMap<>();
        List<int[]> hits = new ArrayList<>(); // line index, match start (into the code text)
        List<String[]> names = new ArrayList<>();
        boolean inComment = false;
        for (int i = 0; i < lines.length; i++) {
            String t = lines[i].strip();
            if (inComment) {
                inComment = !t.contains("*/");
                continue;
            }
            if (t.startsWith("/*")) {
                inComment = !t.contains("*/");
                continue;
            }
            if (t.startsWith("*") || t.startsWith("//") || t.startsWith("import ") || t.startsWith("package ")) {
                continue;
            }
            String code = STRING.matcher(lines[i]).replaceAll("\"\"");
            int comment = code.indexOf("//");
            code = comment < 0 ? code : code.substring(0, comment);
            for (Matcher m = QUALIFIED.matcher(code); m.find(); ) {
                String simple = m.group(2);
                String qualified = m.group(1) + simple;
                bySimpleName.computeIfAbsent(simple, k -> new HashSet<>()).add(qualified);
                hits.add(new int[] {i});
                names.add(new String[] {simple, qualified, m.group(1).substring(0, m.group(1).length() - 1)});
            }
        }
        List<String> free = new ArrayList<>();
        for (int h = 0; h < hits.size(); h++) {
            String simple = names.get(h)[0];
            String qualified = names.get(h)[1];
            String itsPackage = names.get(h)[2];
            boolean taken = (imported.containsKey(simple) && !imported.get(simple).equals(qualified))
                    || (declared.contains(simple) && !itsPackage.equals(ownPackage))
                    || (samePackage.contains(simple) && !itsPackage.equals(ownPackage))
                    || bySimpleName.get(simple).size() > 1;
            if (!taken) {
                free.add(file + ":" + (hits.get(h)[0] + 1) + ": " + qualified);
            }
        }
        return free;
    }
}
