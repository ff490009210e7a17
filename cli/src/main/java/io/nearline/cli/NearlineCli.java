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
package io.nearline.cli;

import io.nearline.jobs.cluster.ClusterException;
import io.nearline.jobs.deploy.DeployCommand;
import io.nearline.jobs.deploy.JobsCommand;
import io.nearline.jobs.kit.console.CommandGroup;
import io.nearline.jobs.verifier.ResyncCommand;
import io.nearline.jobs.verifier.VerifyCommand;
import io.nearline.localcluster.bench.BenchCommand;
import io.nearline.localcluster.bench.RaceCommand;
import io.nearline.localcluster.cluster.ClusterCommand;
import io.nearline.localcluster.clusterio.BootstrapCommand;
import io.nearline.localcluster.clusterio.CollectCommand;
import io.nearline.localcluster.clusterio.DumpCommand;
import io.nearline.localcluster.clusterio.PublishCommand;
import io.nearline.lxctestbed.drillrunner.DrillCommand;
import io.nearline.lxctestbed.testbed.TestbedCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code bin/nearline}: the one front door to Nearline's local tools. */
@Command(
        name = "nearline",
        mixinStandardHelpOptions = true,
        version = "nearline 0.1.0-SNAPSHOT",
        description = "Keep caches and derived streams consistent with a source of truth, on Flink and Samza.",
        subcommands = {
            DemoCommand.class,
            ReplayCommand.class,
            CheckCommand.class,
            VerifyCommand.class,
            ResyncCommand.class,
            TablesCommand.class,
            GetCommand.class,
            GenerateCommand.class,
            BenchCommand.class,
            RaceCommand.class,
            BootstrapCommand.class,
            ClusterCommand.class,
            TestbedCommand.class,
            DrillCommand.class,
            DeployCommand.class,
            JobsCommand.class,
            PublishCommand.class,
            DumpCommand.class,
            CollectCommand.class,
            CommandLine.HelpCommand.class
        })
public final class NearlineCli extends CommandGroup {

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The command line with Nearline's error handling: a user's mistake or a failed cluster operation is one line. */
    public static CommandLine commandLine() {
        return ClusterException.commandLine(new NearlineCli());
    }
}
