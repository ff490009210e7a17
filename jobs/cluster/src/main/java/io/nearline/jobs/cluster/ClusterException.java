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
package io.nearline.jobs.cluster;

import io.nearline.jobs.kit.console.CliErrors;
import picocli.CommandLine;

/**
 * A cluster command that cannot go on, with the one line to show: bad input or an unreachable
 * cluster ({@code usage}, exit 2), or an operation the cluster refused or failed (exit 1).
 */
public class ClusterException extends RuntimeException {

    private final int exitCode;

    public ClusterException(String message) {
        this(message, 2);
    }

    public ClusterException(String message, int exitCode) {
        super(message);
        this.exitCode = exitCode;
    }

    public static ClusterException failed(String message) {
        return new ClusterException(message, 1);
    }

    public int exitCode() {
        return exitCode;
    }

    /**
     * The command line of {@code command} as the front door runs it: a user's mistake (CliErrors) or a
     * failed cluster operation ends with its one line and exit code; anything else keeps its stack trace.
     */
    public static CommandLine commandLine(Object command) {
        CommandLine cli = CliErrors.install(new CommandLine(command));
        CommandLine.IExecutionExceptionHandler usual = cli.getExecutionExceptionHandler();
        return cli.setExecutionExceptionHandler((e, cmd, parse) -> {
            if (e instanceof ClusterException c) {
                cmd.getErr().println("error: " + c.getMessage());
                return c.exitCode();
            }
            return usual.handleExecutionException(e, cmd, parse);
        });
    }
}
