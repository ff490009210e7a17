package io.nearline.tracking.replay;

import io.nearline.common.config.Config;
import io.nearline.tracking.join.JoinSettings;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** The options of {@code replay join}, shared by the front door and each engine's runner. */
public final class ReplayJoinOptions {

    @Option(names = "--index", required = true, paramLabel = "INDEX.jsonl",
            description = "Index-node fragments as JSON lines, in arrival order.")
    public Path index;

    @Option(names = "--broker", required = true, paramLabel = "BROKER.jsonl",
            description = "Broker events as JSON lines, in arrival order.")
    public Path broker;

    @Option(names = "--out-dir", required = true, paramLabel = "DIR",
            description = "Where joined.jsonl, orphans.jsonl, late.jsonl and dead-letters.jsonl go (sorted lines).")
    public Path outDir;

    @Option(names = "--window-ms", paramLabel = "N",
            description = "Event time a request may spread over (join.window; default 10000).")
    public Long windowMillis;

    @Option(names = "--lateness-ms", paramLabel = "N",
            description = "Allowed lateness per input partition (join.allowed-lateness; default 2000).")
    public Long latenessMillis;

    @Option(names = "--partitions", defaultValue = "4",
            description = "Partitions of the index and the broker topic (default: ${DEFAULT-VALUE}).")
    public int partitions;

    @Option(names = "--parallelism", defaultValue = "2", description = "Parallel tasks of the job (default: ${DEFAULT-VALUE}).")
    public int parallelism;

    @Option(names = "--config", paramLabel = "FILE", description = "Job settings (.properties or .yaml); see docs/configuration.md.")
    public Path config;

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "Overrides one setting; repeatable.")
    public Map<String, String> overrides = new LinkedHashMap<>();

    @Option(names = "--work-dir", paramLabel = "DIR",
            description = "Where the broker's log and the job's state live (default: a new temporary directory, kept for inspection).")
    public Path workDir;

    @Option(names = "--summary-json", paramLabel = "FILE", description = "Also write the summary as JSON.")
    public Path summaryJson;

    @Option(names = "--kafka-jar", hidden = true, description = "The broker jar, for engines that run it as its own JVM.")
    public Path kafkaJar;

    /** The job configuration this replay runs with: file, then the replay's own choices, then --set. */
    public Config jobConfig(String bootstrapServers) {
        Config base = config == null ? Config.empty() : Config.load(config);
        Map<String, String> replay = new LinkedHashMap<>();
        replay.put("kafka.bootstrap-servers", bootstrapServers);
        replay.put("job.parallelism", Integer.toString(parallelism));
        if (windowMillis != null) {
            replay.put(JoinSettings.WINDOW.name(), windowMillis + "ms");
        }
        if (latenessMillis != null) {
            replay.put(JoinSettings.ALLOWED_LATENESS.name(), latenessMillis + "ms");
        }
        return base.withOverrides(replay).withOverrides(overrides);
    }

    public Path workDir() throws java.io.IOException {
        return workDir != null ? Files.createDirectories(workDir) : Files.createTempDirectory("nearline-replay-join");
    }
}
