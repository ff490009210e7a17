package io.nearline.localcluster.demo;

import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/** The options of {@code demo}, shared by the front door and each engine's runner. */
public final class DemoOptions {

    @Option(names = "--duration", defaultValue = "60s", converter = DurationConverter.class,
            description = "How long the source of truth commits (default: ${DEFAULT-VALUE}); draining and checking follow.")
    public Duration duration;

    @Option(names = "--keys", defaultValue = "5000", description = "Keys in the table (default: ${DEFAULT-VALUE}).")
    public int keys;

    @Option(names = "--rate", defaultValue = "2000", description = "Commits per second (default: ${DEFAULT-VALUE}).")
    public int rate;

    @Option(names = "--partitions", defaultValue = "4", description = "Partitions of the CDC and the bootstrap topic (default: ${DEFAULT-VALUE}).")
    public int partitions;

    @Option(names = "--parallelism", defaultValue = "2", description = "Parallel tasks of the job (default: ${DEFAULT-VALUE}).")
    public int parallelism;

    @Option(names = "--seed", defaultValue = "1", description = "Workload seed (default: ${DEFAULT-VALUE}).")
    public long seed;

    @Option(names = "--no-trouble", description = "Skip the injected job restart and store outage.")
    public boolean noTrouble;

    @Option(names = "--summary-json", paramLabel = "FILE", description = "Also write the summary as JSON.")
    public Path summaryJson;

    @Option(names = "--work-dir", paramLabel = "DIR", description = "Where the broker and the cache live (default: a new temporary directory).")
    public Path workDir;

    @Option(names = "--kafka-jar", hidden = true, description = "The broker jar, for engines that run it as its own JVM.")
    public Path kafkaJar;

    public Path workDir() throws IOException {
        return workDir != null ? Files.createDirectories(workDir) : Files.createTempDirectory("nearline-demo");
    }

    /** Accepts 90s, 2m, PT1M. */
    public static final class DurationConverter implements picocli.CommandLine.ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            return io.nearline.common.config.ValueType.DURATION.parse(value);
        }
    }
}
