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
package io.nearline.jobs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.couchbase.mock.Bucket;
import com.couchbase.mock.BucketConfiguration;
import com.couchbase.mock.CouchbaseMock;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;

/**
 * The shipped cache-updater jar's Couchbase store, loaded from the jar alone (plus the slf4j API a
 * Flink cluster provides), against CouchbaseMock over TCP: the classes the jar leaves out of the
 * Couchbase SDK (its gRPC transport) must not be needed by the store.
 */
class CacheUpdaterJarIT {

    private static final Path JAR =
            Path.of(System.getProperty("nearline.dist", "target/dist")).resolve("nearline-cache-updater-flink.jar");

    @Test
    void couchbaseStoreFromTheJarWritesWithCas(@TempDir Path dir) throws Exception {
        BucketConfiguration bucket = new BucketConfiguration();
        bucket.name = "nearline";
        bucket.password = "jar-test";
        bucket.type = Bucket.BucketType.COUCHBASE;
        bucket.numNodes = 1;
        bucket.numReplicas = 0;
        bucket.numVBuckets = 16;
        bucket.hostname = "127.0.0.1";
        CouchbaseMock mock = new CouchbaseMock(0, List.of(bucket));
        mock.start();
        mock.waitForStartup();
        Path password = Files.writeString(dir.resolve("password"), bucket.password);
        URL slf4j = Logger.class.getProtectionDomain().getCodeSource().getLocation();
        try (URLClassLoader jar =
                new URLClassLoader(new URL[] {JAR.toUri().toURL(), slf4j}, ClassLoader.getPlatformClassLoader())) {
            Object config = jar.loadClass("io.nearline.common.config.Config")
                    .getMethod("of", Map.class)
                    .invoke(
                            null,
                            Map.of(
                                    "cache.store",
                                    "couchbase",
                                    "couchbase.connection-string",
                                    "couchbase://127.0.0.1:" + mock.getCarrierPort(bucket.name) + "=kv,127.0.0.1:"
                                            + mock.getHttpPort() + "=manager",
                                    "couchbase.username",
                                    bucket.name,
                                    "couchbase.password",
                                    "file:" + password,
                                    "couchbase.bucket",
                                    bucket.name));
            Class<?> storeType = jar.loadClass("io.nearline.common.store.CacheStore");
            Class<?> keyType = jar.loadClass("io.nearline.common.cache.CacheKey");
            Object key = keyType.getMethod("of", String.class).invoke(null, "member:42");
            byte[] first = "v1".getBytes(StandardCharsets.UTF_8);
            byte[] second = "v2".getBytes(StandardCharsets.UTF_8);
            Object store = jar.loadClass("io.nearline.common.store.CacheStores")
                    .getMethod("open", config.getClass())
                    .invoke(null, config);
            try {
                Method insert = storeType.getMethod("insertIfAbsent", keyType, byte[].class, Duration.class);
                Method replace =
                        storeType.getMethod("replaceIfCasMatches", keyType, byte[].class, long.class, Duration.class);
                Method get = storeType.getMethod("get", keyType);
                Duration ttl = Duration.ofHours(1);

                long cas = cas(insert.invoke(store, key, first, ttl));
                assertEquals("EXISTS", status(insert.invoke(store, key, second, ttl)));
                assertEquals("CAS_MISMATCH", status(replace.invoke(store, key, second, cas + 1, ttl)));
                cas(replace.invoke(store, key, second, cas, ttl));

                Optional<?> stored = (Optional<?>) get.invoke(store, key);
                assertTrue(stored.isPresent(), "the record written through the jar's store is not there");
                Object value = stored.get();
                assertArrayEquals(
                        second, (byte[]) value.getClass().getMethod("value").invoke(value));
            } finally {
                storeType.getMethod("close").invoke(store);
            }
        } finally {
            mock.stop();
        }
    }

    private static String status(Object writeResult) throws Exception {
        return String.valueOf(writeResult.getClass().getMethod("status").invoke(writeResult));
    }

    /** The new CAS token of a write that must have succeeded. */
    private static long cas(Object writeResult) throws Exception {
        assertEquals("OK", status(writeResult));
        return (long) writeResult.getClass().getMethod("cas").invoke(writeResult);
    }
}
