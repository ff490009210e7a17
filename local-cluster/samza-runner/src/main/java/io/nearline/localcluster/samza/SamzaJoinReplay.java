package io.nearline.localcluster.samza;

import io.nearline.common.config.Config;
import io.nearline.localcluster.kit.LocalRunOptions;
import io.nearline.localcluster.kit.LocalRuns;
import io.nearline.localcluster.replay.join.JoinReplay;
import io.nearline.localcluster.replay.join.ReplayJoinOptions;
import io.nearline.tracking.join.JoinMetrics;
import io.nearline.tracking.join.JoinSettings;
import io.nearline.tracking.samza.JoinApp;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.samza.runtime.LocalApplicationRunner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code replay join --engine samza}: the broker in its own JVM, and the real app on Samza's local
 * runner. Samza has no bounded Kafka input, so the replay says where each input partition ends;
 * each task ends its partitions there, flushes everything, and reports
 * itself drained; then the app is stopped.
 */
@Command(
        name = "replay-join",
        mixinStandardHelpOptions = true,
        description = "Replays tracking events through the feed-tracking-join app on Samza and writes its outputs.")
public final class SamzaJoinReplay extends SamzaEngine implements Callable<Integer>, JoinReplay.Engine {

    @Mixin
    ReplayJoinOptions options;

    @Override
    public Integer call() throws Exception {
        return JoinReplay.run(options, this);
    }

    @Override
    LocalRunOptions run() {
        return options.run;
    }

    @Override
    public void run(
            Config config, JoinSettings settings, int partitions, Path work, Map<String, Map<Integer, Long>> ends)
            throws Exception {
        LocalApplicationRunner runner = SamzaLocal.start(
                new JoinApp(ends), SamzaLocal.config("tracking-join.properties", options.run, config, work));
        try {
            LocalRuns.await(
                    "tasks drained",
                    () -> SamzaLocal.METRICS.count(JoinMetrics.TASKS_DRAINED),
                    partitions,
                    Duration.ofMinutes(30),
                    () -> SamzaLocal.stopped(runner));
        } finally {
            SamzaLocal.stop(runner);
        }
    }
}
