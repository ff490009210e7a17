package io.nearline.cacheupdater.replay;

import io.nearline.common.config.Config;
import io.nearline.localcluster.replay.LocalRunOptions;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The options of {@code replay cdc}, shared by the front door and each engine's runner. */
public final class ReplayCdcOptions {

    @Mixin
    public LocalRunOptions run;

    @Option(
            names = "--events",
            required = true,
            paramLabel = "FILE",
            description = "Change events as JSON lines; repeat for several files (read in order).")
    public List<Path> events;

    @Option(
            names = "--snapshot",
            paramLabel = "SNAPSHOT.jsonl",
            description = "Also bootstrap from this snapshot (change events with op UPSERT, optionally headed by "
                    + "{\"snapshot\":ID,\"highWatermarks\":{...}}): the bootstrapper applies its rows while the cache "
                    + "updater applies the events, against the same store.")
    public Path snapshot;

    @Option(
            names = "--snapshot-crash-after-rows",
            hidden = true,
            defaultValue = "-1",
            description =
                    "Tests and drills: the snapshot producer dies after this many rows (before saving that chunk) and a new one resumes.")
    public long snapshotCrashAfterRows;

    @Option(
            names = "--out",
            required = true,
            paramLabel = "STATE.jsonl",
            description = "Where the final cache state goes, as JSON lines sorted by key.")
    public Path out;

    @Option(names = "--dlq-out", paramLabel = "DLQ.jsonl", description = "Where the dead letters go, as JSON lines.")
    public Path dlqOut;

    @Option(
            names = "--store",
            defaultValue = "rocksdb",
            description =
                    "Cache store: rocksdb (embedded, in --work-dir) or couchbase (settings via --config/--set). Default: ${DEFAULT-VALUE}.")
    public String store;

    @Option(
            names = "--raw-consume-baseline",
            description = "Before the job runs, time one plain consumer reading the whole CDC topic (for benchmarks).")
    public boolean rawConsumeBaseline;

    /** The job configuration this replay runs with: file, then the replay's own choices, then --set. */
    public Config jobConfig(String bootstrapServers, Path work) {
        Map<String, String> replay = new LinkedHashMap<>();
        replay.put("kafka.bootstrap-servers", bootstrapServers);
        replay.put("cache.store", store);
        replay.put("rocksdb.path", work.resolve("cache-rocksdb").toString());
        return run.jobConfig(replay);
    }
}
