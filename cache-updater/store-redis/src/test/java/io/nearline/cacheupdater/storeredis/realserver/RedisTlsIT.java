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
package io.nearline.cacheupdater.storeredis.realserver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.cacheupdater.core.ScnOrderedWriter;
import io.nearline.cacheupdater.core.WriteOutcome;
import io.nearline.cacheupdater.core.WriterSettings;
import io.nearline.cacheupdater.core.testkit.KeyHistory;
import io.nearline.cacheupdater.storeredis.RedisCacheStore;
import io.nearline.cacheupdater.storeredis.RedisStoreSettings;
import io.nearline.cacheupdater.storeredis.testkit.RedisStoreSetup;
import io.nearline.common.cache.CacheKey;
import io.nearline.common.cache.CacheRecordCodec;
import io.nearline.common.config.Config;
import io.nearline.common.metrics.InMemoryMetrics;
import io.nearline.common.store.StoreException;
import io.nearline.common.testkit.RedisServerProcess;
import io.nearline.common.version.Version;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store over TLS (rediss://) to a redis-server serving only TLS, with a certificate signed by a
 * CA made here (openssl): trusted through redis.tls.trust-certificate, refused without it.
 */
@ExtendWith(RequiresRedis.class)
class RedisTlsIT {

    @TempDir
    Path dir;

    private static void openssl(Path dir, String... args) throws IOException, InterruptedException {
        List<String> command = new java.util.ArrayList<>(List.of("openssl"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, "openssl " + args[0] + ": " + out);
    }

    /** A CA and a server certificate for 127.0.0.1 signed by it, in {@code dir}. */
    private static void certificates(Path dir) throws Exception {
        openssl(
                dir,
                "req",
                "-x509",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-keyout",
                "ca.key",
                "-out",
                "ca.pem",
                "-days",
                "2",
                "-subj",
                "/CN=nearline-test-ca");
        openssl(
                dir,
                "req",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-keyout",
                "server.key",
                "-out",
                "server.csr",
                "-subj",
                "/CN=127.0.0.1");
        Files.writeString(dir.resolve("ext.cnf"), "subjectAltName=IP:127.0.0.1\n");
        openssl(
                dir,
                "x509",
                "-req",
                "-in",
                "server.csr",
                "-CA",
                "ca.pem",
                "-CAkey",
                "ca.key",
                "-CAcreateserial",
                "-out",
                "server.pem",
                "-days",
                "2",
                "-extfile",
                "ext.cnf");
    }

    @Test
    void writesOverTlsWithTheGivenCaAndRefusesAServerItCannotTrust() throws Exception {
        Path certs = Files.createDirectories(dir.resolve("certs"));
        certificates(certs);
        int tlsPort;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            tlsPort = s.getLocalPort();
        }
        List<String> tls = List.of(
                "port 0", // TLS only: the plain port is closed
                "tls-port " + tlsPort,
                "tls-cert-file " + certs.resolve("server.pem"),
                "tls-key-file " + certs.resolve("server.key"),
                "tls-ca-cert-file " + certs.resolve("ca.pem"),
                "tls-auth-clients no");
        try (RedisServerProcess server =
                RedisServerProcess.start(dir.resolve("redis"), RedisStoreSetup.STORE, tls, false)) {
            Map<String, String> settings = new HashMap<>(server.settings());
            settings.put("redis.servers", "rediss://127.0.0.1:" + tlsPort);
            settings.put("redis.connect-timeout", "5s");
            Map<String, String> admin = new HashMap<>(settings);
            admin.putAll(Map.of(
                    "redis.username", RedisServerProcess.ADMIN,
                    "redis.password", server.adminSettings().get("redis.password"),
                    "redis.tls.trust-certificate", certs.resolve("ca.pem").toString()));
            RedisCacheStore.loadFunctions(RedisStoreSettings.from(Config.of(admin)));

            StoreException untrusted = assertThrows(
                    StoreException.class, () -> RedisCacheStore.connect(RedisStoreSettings.from(Config.of(settings))));
            assertTrue(untrusted.getMessage().contains("redis.tls"), untrusted.getMessage());

            settings.put("redis.tls.trust-certificate", certs.resolve("ca.pem").toString());
            try (RedisCacheStore store = RedisCacheStore.connect(RedisStoreSettings.from(Config.of(settings)))) {
                ScnOrderedWriter writer = new ScnOrderedWriter(
                        store, WriterSettings.defaults().withTtl(Duration.ofHours(1)), new InMemoryMetrics());
                CacheKey k = CacheKey.of("over-tls");
                assertEquals(
                        WriteOutcome.APPLIED,
                        writer.write(k, KeyHistory.record(k, Version.of(7, 1), false))
                                .outcome());
                assertEquals(
                        Version.of(7, 1),
                        CacheRecordCodec.decode(store.get(k).orElseThrow().value())
                                .version());
            }
        }
    }
}
