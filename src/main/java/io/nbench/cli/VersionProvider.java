package io.nbench.cli;

import io.nbench.report.Environment;
import picocli.CommandLine.IVersionProvider;

/** {@code nbench --version}: fast, no native probing ({@code nbench list} does that). */
final class VersionProvider implements IVersionProvider {

    @Override
    public String[] getVersion() {
        return new String[] {
            "nbench " + Environment.version(),
            "JVM: " + System.getProperty("java.vm.vendor") + " " + System.getProperty("java.vm.name") + " "
                    + System.getProperty("java.runtime.version"),
            "OS: " + System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch")
        };
    }
}
