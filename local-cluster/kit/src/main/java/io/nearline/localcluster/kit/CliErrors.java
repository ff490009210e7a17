package io.nearline.localcluster.kit;

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
        // a mistyped option or value: one line, and where the help is, instead of the whole usage
        commandLine.setParameterExceptionHandler((e, args) -> {
            CommandLine cmd = e.getCommandLine();
            String suggestions = e instanceof CommandLine.UnmatchedArgumentException u
                            && !u.getSuggestions().isEmpty()
                    ? " (did you mean " + String.join(" or ", u.getSuggestions()) + "?)"
                    : "";
            cmd.getErr()
                    .println("error: " + e.getMessage() + suggestions + "; see '"
                            + cmd.getCommandSpec().qualifiedName() + " --help'");
            return 2;
        });
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
