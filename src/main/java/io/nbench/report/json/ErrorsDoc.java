package io.nbench.report.json;

import io.nbench.stats.ErrorCounts;

/** Errors by class ({@code connect}, {@code read}, ...) and their {@code total}, as written. */
public record ErrorsDoc(long total, ErrorCounts.Snapshot byClass) {

    public static ErrorsDoc of(ErrorCounts.Snapshot e) {
        return new ErrorsDoc(e.total(), e);
    }
}
