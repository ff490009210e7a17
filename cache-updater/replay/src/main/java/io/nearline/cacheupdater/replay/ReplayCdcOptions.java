package io.nearline.cacheupdater.replay;

import io.nearline.cacheupdater.core.CacheUpdaterSettings;
import io.nearline.cacheupdater.core.CacheUpdaterSettings.CdcFormat;
import io.nearline.common.config.Config;
import io.nearline.common.config.ConfigException;
import io.nearline.localcluster.replay.LocalRunOptions;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** The options of {@code replay cdc}, shared by the front door and each engine's runner. */
public final class ReplayCdcOptions {

    @Mixin
    public LocalRunOptions run;

    /** The replay command these options belong to (a crash test starts it again as the job's process). */
    @Spec(Spec.Target.MIXEE)
    public CommandSpec command;

    @Option(
            names = "--events",
            required = true,
            paramLabel = "FILE",
            description = "Change events as JSON lines; repeat for several files (read in order).")
    public List<Path> events;

    /** The forms an events file can be in. */
    public enum Format {
        /** This project's change events as JSON lines, sent to the job as Avro. */
        nearline,
        /** Debezium records as JSON lines, sent as they are; the job runs with cdc.format=debezium-json. */
        debezium
    }

    @Option(
            names = "--format",
            defaultValue = "nearline",
            description =
                    "Form of the events files: nearline (this project's text form) or debezium (Debezium's JSON "
                            + "envelope per line, or {\"key\":K,\"value\":V}; see docs/debezium.md). Default: ${DEFAULT-VALUE}.")
    public Format format;

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
                    "Cache store: rocksdb (embedded, in --work-dir) or couchbase (CouchbaseMock started for the run, "
                            + "in a JVM of its own on 127.0.0.1, unless --couchbase-connection or couchbase.connection-string names "
                            + "a server). Default: ${DEFAULT-VALUE}.")
    public String store;

    @Option(
            names = "--couchbase-connection",
            paramLabel = "STR",
            description = "--store couchbase: a Couchbase cluster to write instead of a mock (couchbase://host...).")
    public String couchbaseConnection;

    @Option(names = "--couchbase-bucket", paramLabel = "BUCKET", description = "Bucket of the cache on that cluster.")
    public String couchbaseBucket;

    @Option(names = "--couchbase-user", paramLabel = "USER", description = "User with read and write access to it.")
    public String couchbaseUser;

    @Option(
            names = "--couchbase-password",
            paramLabel = "REF",
            description = "That user's password, by reference: env:VARIABLE or file:/path.")
    public String couchbasePassword;

    /** Whether this replay starts CouchbaseMock: --store couchbase and no server named. */
    public boolean startsCouchbaseMock() {
        return "couchbase".equals(store)
                && couchbaseConnection == null
                && run.jobConfig(Map.of()).raw("couchbase.connection-string").isEmpty();
    }

    /** Set once this replay has started CouchbaseMock and pointed the job at it. */
    private boolean mockStarted;

    /** Points the job at the CouchbaseMock this replay started, which these settings reach. */
    public void useCouchbaseMock(Map<String, String> settings) {
        mockStarted = true;
        couchbaseConnection = settings.get("couchbase.connection-string");
        couchbaseBucket = settings.get("couchbase.bucket");
        couchbaseUser = settings.get("couchbase.username");
        couchbasePassword = settings.get("couchbase.password");
    }

    /**
     * What the job's own process in a crash test needs beyond the replay's own arguments (which it gets
     * too): the address of the mock this replay started, if it started one.
     */
    public List<String> couchbaseArgs() {
        return mockStarted
                ? List.of(
                        "--couchbase-connection",
                        couchbaseConnection,
                        "--couchbase-bucket",
                        couchbaseBucket,
                        "--couchbase-user",
                        couchbaseUser,
                        "--couchbase-password",
                        couchbasePassword)
                : List.of();
    }

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
        replay.put(CacheUpdaterSettings.CDC_FORMAT.name(), format == Format.debezium ? "debezium-json" : "avro");
        if ("couchbase".equals(store) && couchbaseConnection != null) {
            replay.put("couchbase.connection-string", couchbaseConnection);
            putIfSet(replay, "couchbase.bucket", couchbaseBucket);
            putIfSet(replay, "couchbase.username", couchbaseUser);
            putIfSet(replay, "couchbase.password", couchbasePassword);
        } else if (startsCouchbaseMock()) { // checked before the mock starts: its settings, to be filled in
            replay.put("couchbase.bucket", "nearline");
            replay.put("couchbase.username", "nearline");
        }
        Config config = run.jobConfig(replay);
        if (config.get(CacheUpdaterSettings.CDC_FORMAT)
                != (format == Format.debezium ? CdcFormat.DEBEZIUM_JSON : CdcFormat.AVRO)) {
            throw new ConfigException("cdc.format does not match --format " + format
                    + ": leave cdc.format out, the replay sets it from --format");
        }
        return config;
    }

    private static void putIfSet(Map<String, String> settings, String key, String value) {
        if (value != null) {
            settings.put(key, value);
        }
    }
}
