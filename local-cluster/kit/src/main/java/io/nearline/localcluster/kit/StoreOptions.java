package io.nearline.localcluster.kit;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The cache store of a local run ({@code replay cdc}, {@code demo}): the embedded RocksDB store, or
 * Couchbase, either a CouchbaseMock the tool starts for the run or a cluster the user names. A picocli
 * mixin.
 */
public final class StoreOptions {

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

    /** Set once this run has started CouchbaseMock and pointed the job at it. */
    private boolean mockStarted;

    public boolean isCouchbase() {
        return "couchbase".equals(store);
    }

    /** Whether this run starts CouchbaseMock: --store couchbase and no server named, here or in the job settings. */
    public boolean startsCouchbaseMock(LocalRunOptions run) {
        return isCouchbase()
                && couchbaseConnection == null
                && run.jobConfig(Map.of()).raw("couchbase.connection-string").isEmpty();
    }

    /** Starts CouchbaseMock in a JVM of its own, with its files under {@code work}, and points the job at it. */
    public ForkedCouchbase startCouchbaseMock(Path work) throws IOException {
        ForkedCouchbase couchbase = ForkedCouchbase.start(ForkedCouchbase.mockJar(), work.resolve("couchbase"));
        Map<String, String> settings = couchbase.settings();
        mockStarted = true;
        couchbaseConnection = settings.get("couchbase.connection-string");
        couchbaseBucket = settings.get("couchbase.bucket");
        couchbaseUser = settings.get("couchbase.username");
        couchbasePassword = settings.get("couchbase.password");
        System.out.printf("couchbase: CouchbaseMock at %s, bucket %s%n", couchbaseConnection, couchbaseBucket);
        return couchbase;
    }

    /**
     * The store's job settings: {@code cache.store}, the RocksDB directory under {@code work}, and the
     * Couchbase cluster's address and credentials where named or started (a mock not started yet gets
     * its bucket and user, its address to follow).
     */
    public void putSettings(Map<String, String> settings, Path work, LocalRunOptions run) {
        settings.put("cache.store", store);
        settings.put("rocksdb.path", work.resolve("cache-rocksdb").toString());
        if (isCouchbase() && couchbaseConnection != null) {
            settings.put("couchbase.connection-string", couchbaseConnection);
            putIfSet(settings, "couchbase.bucket", couchbaseBucket);
            putIfSet(settings, "couchbase.username", couchbaseUser);
            putIfSet(settings, "couchbase.password", couchbasePassword);
        } else if (startsCouchbaseMock(run)) {
            settings.put("couchbase.bucket", ForkedCouchbase.BUCKET);
            settings.put("couchbase.username", ForkedCouchbase.BUCKET);
        }
    }

    /**
     * What a job's own process (a crash test) needs beyond the run's own arguments, which it gets too:
     * the address of the mock this run started, if it started one.
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

    private static void putIfSet(Map<String, String> settings, String key, String value) {
        if (value != null) {
            settings.put(key, value);
        }
    }
}
