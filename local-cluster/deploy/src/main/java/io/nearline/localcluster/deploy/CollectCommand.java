package io.nearline.localcluster.deploy;

import io.nearline.localcluster.cluster.ClusterOption;
import io.nearline.localcluster.kit.ReplayOutput;
import io.nearline.localcluster.kit.WaitOption;
import io.nearline.localcluster.replay.join.JoinKafka;
import io.nearline.tracking.join.JoinSettings;
import io.nearline.tracking.reference.JoinOutputs;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code nearline collect tracking}: the join's output topics into the replay's file forms. */
@Command(
        name = "collect",
        mixinStandardHelpOptions = true,
        description = "Read a job's output topics from a cluster into files.",
        subcommands = {CollectCommand.Tracking.class})
public final class CollectCommand implements Runnable {

    @Override
    public void run() {
        System.out.println("usage: nearline collect tracking --out-dir DIR [--cluster DIR] [--wait 60s] (see --help)");
    }

    @Command(
            name = "tracking",
            mixinStandardHelpOptions = true,
            description = {
                "Read the join's output topics into joined.jsonl, orphans.jsonl, late.jsonl and dead-letters.jsonl "
                        + "(the forms of 'replay join', sorted), comparable line for line with a replay.",
                "%nWith --wait, reads again until the outputs stop changing for 5 s (the join emits as windows "
                        + "close) or the time is up.%n"
            })
    static final class Tracking implements Callable<Integer> {

        @Option(names = "--out-dir", required = true, paramLabel = "DIR", description = "Where the files go.")
        Path outDir;

        @Mixin
        ClusterOption cluster;

        @Mixin
        WaitOption waitFor;

        @Mixin
        SetOptions sets;

        @Override
        public Integer call() throws InterruptedException {
            JoinSettings s = PublishCommand.joinSettings(cluster.read(), sets);
            long deadline = waitFor.deadlineNanos();
            JoinOutputs outputs = JoinKafka.outputs(s.bootstrapServers(), s);
            List<String> deadLetters = JoinKafka.deadLetters(s.bootstrapServers(), s);
            long stableSince = System.nanoTime();
            while (System.nanoTime() < deadline
                    && System.nanoTime() - stableSince < Duration.ofSeconds(5).toNanos()) {
                Thread.sleep(1000);
                JoinOutputs again = JoinKafka.outputs(s.bootstrapServers(), s);
                List<String> lettersAgain = JoinKafka.deadLetters(s.bootstrapServers(), s);
                if (!again.equals(outputs)
                        || !lettersAgain.equals(deadLetters)
                        || again.joined().isEmpty()) {
                    stableSince = System.nanoTime();
                    System.err.printf(
                            "  collecting: %,d joined, %,d orphans, %,d late%n",
                            again.joined().size(),
                            again.orphans().size(),
                            again.late().size());
                }
                outputs = again;
                deadLetters = lettersAgain;
            }
            ReplayOutput.write(outDir.resolve("joined.jsonl"), outputs.joined());
            ReplayOutput.write(outDir.resolve("orphans.jsonl"), outputs.orphans());
            ReplayOutput.write(outDir.resolve("late.jsonl"), outputs.late());
            ReplayOutput.write(outDir.resolve("dead-letters.jsonl"), deadLetters);
            System.out.printf(
                    "collected %,d joined (%,d complete), %,d orphans, %,d late, %,d dead letters into %s%n",
                    outputs.joined().size(),
                    outputs.complete(),
                    outputs.orphans().size(),
                    outputs.late().size(),
                    deadLetters.size(),
                    outDir);
            return 0;
        }
    }
}
