package io.nbench.client.output;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Every output the client has, each with the option that turns it on; the one place a new output is added.
 * Outputs are opened and called in the order listed here: the progress line first (it erases its line before
 * others print), the files, then the {@code --format} on stdout, which prints the run's last words.
 */
public final class OutputRegistry {

    /** A {@code --format}: what goes to stdout. */
    public record Format(String name, String help, boolean withForks, Output.Factory factory) {
    }

    /** An output turned on by its own option. */
    public record Extra(String option, boolean withForks, Predicate<OutputSettings> enabled, Output.Factory factory) {
    }

    /*
     * Lambdas, not method references (TextOutput::new): a method reference loads its class when the registry
     * is first used, and the help of client and run, which only lists the formats, would load every output and
     * the JSON library behind them; a lambda loads its output only when it is opened.
     */

    /** The first is the default. */
    private static final List<Format> FORMATS = List.of(
            new Format("text", "", true, c -> new TextOutput(c)),
            new Format("json", "the result document only", false, c -> new JsonOutput(c)),
            new Format("csv", "a row per iteration", false, c -> new CsvOutput(c)),
            new Format("ndjson", "a JSON line per second, then the result document", false, c -> new NdjsonOutput(c)));

    private static final List<Extra> EXTRAS = List.of(
            new Extra("--progress", true, s -> true, c -> ProgressOutput.open(c)),
            new Extra("--hdr-log", false, s -> s.hdrLog() != null, c -> HdrLogOutput.open(c)),
            new Extra("--hgrm", false, s -> s.hgrm() != null, c -> HgrmOutput.open(c)),
            new Extra("--out", true, s -> s.out() != null, c -> ResultFileOutput.open(c)));

    private OutputRegistry() {
    }

    /** The {@code --format} names, the default first. */
    public static List<String> formatNames() {
        return FORMATS.stream().map(Format::name).toList();
    }

    /** {@code json: the result document only; csv: ...}: what each format other than the default prints. */
    public static String formatHelp() {
        return FORMATS.stream().skip(1).map(f -> f.name() + ": " + f.help()).collect(Collectors.joining("; "));
    }

    /** The format of that name, ignoring case. */
    public static Format format(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        return FORMATS.stream().filter(f -> f.name().equals(lower)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("expected one of " + formatNames() + " but was '"
                        + name + "'"));
    }

    /**
     * The options a run of several forks cannot honour ({@code --forks} prints text and keeps each fork's
     * result document): {@code --format} when some format cannot, and every other output's own option.
     */
    public static List<String> optionsNotWithForks() {
        List<String> options = new ArrayList<>();
        if (FORMATS.stream().anyMatch(f -> !f.withForks())) {
            options.add("--format");
        }
        EXTRAS.stream().filter(e -> !e.withForks()).map(Extra::option).forEach(options::add);
        return options;
    }

    /** Whether these settings turn on an output that a run of several forks cannot honour. */
    public static boolean refusedWithForks(OutputSettings settings) {
        return !format(settings.format()).withForks()
                || EXTRAS.stream().anyMatch(e -> !e.withForks() && e.enabled().test(settings));
    }

    /** The factories of the outputs these settings turn on, in calling order. */
    static List<Output.Factory> enabled(OutputSettings settings) {
        List<Output.Factory> factories = new ArrayList<>();
        EXTRAS.stream().filter(e -> e.enabled().test(settings)).map(Extra::factory).forEach(factories::add);
        factories.add(format(settings.format()).factory());
        return factories;
    }
}
