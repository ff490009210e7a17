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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * The cache a local run writes, as its options say: the embedded store in the work directory; a
 * networked store's server started for the run unless one is named, on the command line or in the job
 * settings; a named server's address and credentials passed to the job, the password as the reference
 * given.
 */
class StoreOptionsTest {

    @TempDir
    Path dir;

    @Command(name = "replay")
    static final class Run {
        @Mixin
        LocalRunOptions run;

        @Mixin
        StoreOptions store;
    }

    private Run parsed(String... args) {
        Run r = new Run();
        new CommandLine(r).parseArgs(args);
        return r;
    }

    private Map<String, String> settings(Run r) {
        Map<String, String> s = new LinkedHashMap<>();
        r.store.putSettings(s, dir, r.run);
        return s;
    }

    @Test
    void theEmbeddedStoreByDefaultInTheWorkDirectory() {
        Run r = parsed();
        assertFalse(r.store.isNetworked());
        assertFalse(r.store.startsServer(r.run));
        assertEquals(
                Map.of(
                        "cache.store",
                        "rocksdb",
                        "rocksdb.path",
                        dir.resolve("cache-rocksdb").toString()),
                settings(r));
        assertEquals(List.of(), r.store.serverArgs(), "nothing started");
    }

    @Test
    void aNamedRedisServerIsWrittenNotStarted() {
        Run r = parsed(
                "--store",
                "redis",
                "--redis-servers",
                "redis://10.0.0.5:6379",
                "--redis-user",
                "job",
                "--redis-password",
                "env:REDIS_PW");
        assertTrue(r.store.isNetworked());
        assertFalse(r.store.startsServer(r.run));
        Map<String, String> s = settings(r);
        assertEquals("redis", s.get("cache.store"));
        assertEquals("redis://10.0.0.5:6379", s.get("redis.servers"));
        assertEquals("job", s.get("redis.username"));
        assertEquals("env:REDIS_PW", s.get("redis.password"), "the reference, as given");
    }

    @Test
    void aServerNamedInTheJobSettingsIsNotStartedEither() throws Exception {
        Path config =
                Files.writeString(dir.resolve("job.properties"), "couchbase.connection-string=couchbase://cb-1\n");
        Run named = parsed("--store", "couchbase", "--config", config.toString());
        assertFalse(named.store.startsServer(named.run), "the job settings name a server");
        Run unnamed = parsed("--store", "couchbase");
        assertTrue(unnamed.store.startsServer(unnamed.run), "no server named: the run starts CouchbaseMock");
        Map<String, String> s = settings(unnamed);
        assertEquals("couchbase", s.get("cache.store"));
        assertFalse(s.containsKey("couchbase.connection-string"), "the mock's address follows once it is up");
        assertTrue(s.containsKey("couchbase.bucket") && s.containsKey("couchbase.username"), s.toString());
    }
}
