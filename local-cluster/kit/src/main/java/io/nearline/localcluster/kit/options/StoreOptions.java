/*
 * Copyright 2026 The Nearline Authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package io.nearline.localcluster.kit.options;

import io.nearline.common.config.Config;
import io.nearline.common.config.ConfigException;
import io.nearline.common.store.CacheStore;
import io.nearline.common.store.StoreException;
import io.nearline.localcluster.kit.processes.ForkedCouchbase;
import io.nearline.localcluster.kit.processes.ForkedStore;
import io.nearline.localcluster.kit.stores.LocalStores;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The cache store of a local run ({@code replay cdc}, {@code demo}): the embedded RocksDB store, or a
 * networked one (Couchbase, Redis), either a server the tool starts for the run or one the user
 * names. A picocli mixin.
 */
public final class StoreOptions {

    @Option(
            names = "--store",
            defaultValue = "rocksdb",
            description =
                    "Cache store: rocksdb (embedded, in --work-dir), couchbase (CouchbaseMock started for the run, "
                            + "in a JVM of its own on 127.0.0.1, unless --couchbase-connection or couchbase.connection-string "
                            + "names a server) or redis (a redis-server started for the run on 127.0.0.1, unless "
                            + "--redis-servers or redis.servers names one). Default: ${DEFAULT-VALUE}.")
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

    @Option(
            names = "--redis-servers",
            paramLabel = "URIS",
            description = "--store redis: a Redis server to write instead of starting one (redis://host:port; "
                    + "several, comma-separated, with --set redis.cluster=true for a Redis Cluster).")
    public String redisServers;

    @Option(names = "--redis-user", paramLabel = "USER", description = "ACL user on that server.")
    public String redisUser;

    @Option(
            names = "--redis-password",
            paramLabel = "REF",
            description = "That user's password, by reference: env:VARIABLE or file:/path.")
    public String redisPassword;

    /** The server this run started, if it started one. */
    private ForkedStore started;

    public boolean isCouchbase() {
        return "couchbase".equals(store);
    }

    public boolean isRedis() {
        return "redis".equals(store);
    }

    /** A store over the network, whose server can be killed, frozen and restarted (not the embedded one). */
    public boolean isNetworked() {
        return isCouchbase() || isRedis();
    }

    /** Whether this run starts the store's server: a networked store and no server named, here or in the job settings. */
    public boolean startsServer(LocalRunOptions run) {
        Map<String, String> none = Map.of();
        return (isCouchbase()
                        && couchbaseConnection == null
                        && run.jobConfig(none)
                                .raw("couchbase.connection-string")
                                .isEmpty())
                || (isRedis()
                        && redisServers == null
                        && run.jobConfig(none).raw("redis.servers").isEmpty());
    }

    /** Starts the store's server (CouchbaseMock, redis-server) with its files under {@code work}, and points the job at it. */
    public ForkedStore startServer(Path work) throws IOException {
        started = ForkedStore.start(store, work);
        Map<String, String> settings = started.settings();
        if (isCouchbase()) {
            couchbaseConnection = settings.get("couchbase.connection-string");
            couchbaseBucket = settings.get("couchbase.bucket");
            couchbaseUser = settings.get("couchbase.username");
            couchbasePassword = settings.get("couchbase.password");
        } else {
            redisServers = settings.get("redis.servers");
            redisUser = settings.get("redis.username");
            redisPassword = settings.get("redis.password");
        }
        System.out.printf("%s: %s%n", store, started.describe());
        return started;
    }

    /** The server this run starts, or null where it names one or the store is embedded. */
    public ForkedStore startServerIfNeeded(Path work, LocalRunOptions run) throws IOException {
        return startsServer(run) ? startServer(work) : null;
    }

    /**
     * The store's job settings: {@code cache.store}, the RocksDB directory under {@code work}, and the
     * networked store's address and credentials where named or started (a mock not started yet gets
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
        } else if (isCouchbase() && startsServer(run)) {
            settings.put("couchbase.bucket", ForkedCouchbase.BUCKET);
            settings.put("couchbase.username", ForkedCouchbase.BUCKET);
        } else if (isRedis() && redisServers != null) {
            settings.put("redis.servers", redisServers);
            putIfSet(settings, "redis.username", redisUser);
            putIfSet(settings, "redis.password", redisPassword);
        }
    }

    /**
     * What a job's own process (a crash test) needs beyond the run's own arguments, which it gets too:
     * the address of the server this run started, if it started one.
     */
    public List<String> serverArgs() {
        return started == null ? List.of() : started.replayArgs();
    }

    /**
     * Opens a networked store once before a run starts and lets it go: an unreachable server, a wrong
     * password or a server too old then ends the run with the store's one-line reason (exit 2), not
     * with a job failing on its tasks. The embedded store is opened by the job itself.
     */
    public void probe(Config config) {
        if (!isNetworked()) {
            return;
        }
        try (CacheStore store = LocalStores.open(config)) {
            store.health(); // opened is what counts
        } catch (StoreException e) {
            throw new ConfigException(e.getMessage());
        }
    }

    private static void putIfSet(Map<String, String> settings, String key, String value) {
        if (value != null) {
            settings.put(key, value);
        }
    }
}
