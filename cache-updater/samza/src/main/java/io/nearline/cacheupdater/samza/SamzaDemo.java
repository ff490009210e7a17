package io.nearline.cacheupdater.samza;

import io.nearline.engine.samza.SamzaMetrics;

import io.nearline.localcluster.replay.ForkedKafka;
import io.nearline.cacheupdater.core.CacheUpdaterSettings;
import io.nearline.common.config.Config;
import io.nearline.common.metrics.InMemoryMetrics;
import io.nearline.localcluster.demo.Demo;
import io.nearline.localcluster.demo.DemoOptions;
import org.apache.samza.config.MapConfig;
import org.apache.samza.runtime.LocalApplicationRunner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;

/** {@code demo --engine samza}: the broker in its own JVM, the app on the local runner, killed and restarted on cue. */
@Command(name = "demo", mixinStandardHelpOptions = true, description = "The local stack with the cache-updater app on Samza.")
public final class SamzaDemo implements Callable<Integer>, Demo.Engine {

    @Mixin
    DemoOptions options;

    @Override
    public Integer call() throws Exception {
        Path work = options.workDir();
        try (ForkedKafka kafka = ForkedKafka.start(ForkedKafka.brokerJar(options.kafkaJar), work.resolve("kafka"))) {
            return Demo.run(options, work, kafka.bootstrapServers(), this);
        }
    }

    @Override
    public String name() {
        return "samza";
    }

    @Override
    public InMemoryMetrics localMetrics() {
        return SamzaMetrics.local();
    }

    /** Killing the runner loses what was not yet checkpointed; the next start resumes from Samza's Kafka checkpoints. */
    @Override
    public AutoCloseable start(Config config, CacheUpdaterSettings settings, String bootstrapTopic) {
        LocalApplicationRunner runner = new LocalApplicationRunner(new CacheUpdaterApp(settings, bootstrapTopic),
                new MapConfig(CacheUpdaterApp.localRunConfig(config)));
        runner.run();
        return () -> {
            runner.kill();
            runner.waitForFinish(Duration.ofSeconds(60));
        };
    }
}
