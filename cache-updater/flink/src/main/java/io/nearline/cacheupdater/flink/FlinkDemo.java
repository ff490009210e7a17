package io.nearline.cacheupdater.flink;

import io.nearline.engine.flink.FlinkMetrics;

import io.nearline.cacheupdater.core.CacheUpdaterSettings;
import io.nearline.common.config.Config;
import io.nearline.common.metrics.InMemoryMetrics;
import io.nearline.localcluster.demo.Demo;
import io.nearline.localcluster.demo.DemoOptions;
import io.nearline.localcluster.kafka.EmbeddedKafka;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/** {@code demo --engine flink}: the broker in this JVM, the job on a local MiniCluster, stopped and restarted on cue. */
@Command(name = "demo", mixinStandardHelpOptions = true, description = "The local stack with the cache-updater job on Flink.")
public final class FlinkDemo implements Callable<Integer>, Demo.Engine {

    @Mixin
    DemoOptions options;

    @Override
    public Integer call() throws Exception {
        Path work = options.workDir();
        try (EmbeddedKafka kafka = EmbeddedKafka.start(work.resolve("kafka"))) {
            return Demo.run(options, work, kafka.bootstrapServers(), this);
        }
    }

    @Override
    public String name() {
        return "flink";
    }

    @Override
    public InMemoryMetrics localMetrics() {
        return FlinkMetrics.local();
    }

    /** Cancelling drops what was not yet checkpointed; the next start resumes from the committed offsets. */
    @Override
    public AutoCloseable start(Config config, CacheUpdaterSettings settings, String bootstrapTopic) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(settings.parallelism());
        CacheUpdaterJob.define(env, config, CacheUpdaterJob.kafkaSource(settings, false),
                CacheUpdaterJob.bootstrapSource(settings, bootstrapTopic, false), CacheUpdaterJob.deadLetterSink(settings));
        JobClient job = env.executeAsync("nearline-cache-updater-demo");
        return () -> job.cancel().get(60, TimeUnit.SECONDS);
    }
}
