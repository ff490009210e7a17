package io.nearline.localcluster.replay;

import io.nearline.common.config.ConfigException;
import java.io.UncheckedIOException;
import picocli.CommandLine;

/**
 * How Nearline's commands end on a user's mistake (bad configuration, an unreadable or malformed
 * file): one line saying what is wrong, exit code 2, no stack trace. Anything else is a bug and
 * keeps its stack trace.
 */
public final class CliErrors {

    private CliErrors() {}

    public static CommandLine install(CommandLine commandLine) {
        return commandLine.setExecutionExceptionHandler((e, cmd, parse) -> {
            if (e instanceof ConfigException
                    || e instanceof IllegalArgumentException
                    || e instanceof UncheckedIOException) {
                cmd.getErr().println("error: " + e.getMessage());
                return 2;
            }
            throw e;
        });
    }
}
