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
package io.nearline.localcluster.connectrunner;

import io.nearline.jobs.kit.console.CliErrors;
import io.nearline.jobs.kit.console.CommandGroup;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The local runner of the cache sink connector ({@code nearline-connect-runner.jar}): what the front door starts. */
@Command(
        name = "nearline-connect-runner",
        mixinStandardHelpOptions = true,
        subcommands = {ConnectReplay.class, ConnectDemo.class})
public final class ConnectRunner extends CommandGroup {

    public static void main(String[] args) {
        System.exit(CliErrors.install(new CommandLine(new ConnectRunner())).execute(args));
    }
}
