/*
 * Copyright 2026 The Nearline Authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package io.nearline.jobs.kit.console;

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
