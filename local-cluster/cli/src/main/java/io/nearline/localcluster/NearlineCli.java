package io.nearline.localcluster;

import io.nearline.drill.DrillCommand;
import io.nearline.localcluster.bench.BenchCommand;
import io.nearline.localcluster.bench.RaceCommand;
import io.nearline.localcluster.cluster.ClusterCommand;
import io.nearline.localcluster.cluster.ClusterException;
import io.nearline.localcluster.deploy.BootstrapCommand;
import io.nearline.localcluster.deploy.CollectCommand;
import io.nearline.localcluster.deploy.DeployCommand;
import io.nearline.localcluster.deploy.DumpCommand;
import io.nearline.localcluster.deploy.JobsCommand;
import io.nearline.localcluster.deploy.PublishCommand;
import io.nearline.localcluster.kit.CliErrors;
import io.nearline.localcluster.kit.CommandGroup;
import io.nearline.testbed.TestbedCommand;
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
        CommandLine cli = CliErrors.install(new CommandLine(new NearlineCli()));
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
