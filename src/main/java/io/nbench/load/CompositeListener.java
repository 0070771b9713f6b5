package io.nbench.load;

import io.nbench.stats.IntervalResult;
import io.nbench.stats.IterationResult;
import java.util.List;

/** Several outputs listening to one run (text, csv, ndjson, hdr-log, progress), called in order. */
public final class CompositeListener implements RunListener {

    private final List<RunListener> listeners;

    public CompositeListener(List<RunListener> listeners) {
        this.listeners = List.copyOf(listeners);
    }

    @Override
    public void onConnected(int connections) {
        listeners.forEach(l -> l.onConnected(connections));
    }

    @Override
    public void onStarted(long startEpochMillis) {
        listeners.forEach(l -> l.onStarted(startEpochMillis));
    }

    @Override
    public void onIteration(IterationResult iteration) {
        listeners.forEach(l -> l.onIteration(iteration));
    }

    @Override
    public void onReconnect() {
        listeners.forEach(RunListener::onReconnect);
    }

    @Override
    public void onInterval(IntervalResult interval) {
        listeners.forEach(l -> l.onInterval(interval));
    }
}
