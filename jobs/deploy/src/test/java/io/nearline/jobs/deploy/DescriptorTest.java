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
package io.nearline.jobs.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nearline.jobs.cluster.ClusterException;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DescriptorTest {

    @TempDir
    Path dir;

    private Path write(String yaml) throws IOException {
        return Files.writeString(dir.resolve("d.yaml"), yaml);
    }

    @Test
    void everyShippedDescriptorReads() throws IOException {
        int n = 0;
        try (DirectoryStream<Path> shipped = Files.newDirectoryStream(Path.of("../../jobs/deploy"), "*.yaml")) {
            for (Path file : shipped) {
                Descriptor d = Descriptor.read(file);
                assertTrue(Descriptor.JOBS.contains(d.job()), file.toString());
                n++;
            }
        }
        assertTrue(n >= 3, "shipped descriptors: " + n);
    }

    @Test
    void aDescriptorReadsWithDefaults() throws IOException {
        Descriptor d = Descriptor.read(write("job: cache-updater\nengine: flink\ntarget: flink-session\n"
                + "artifact: x.jar\nsettings:\n  cache.ttl: 1d\n"));
        assertEquals("nearline-cache-updater", d.name());
        assertEquals(1, d.parallelism());
        assertEquals(Descriptor.Restore.SAVEPOINT, d.restore());
        assertEquals(Map.of("cache.ttl", "1d"), d.settings());
    }

    @Test
    void mistakesAreNamedWithTheFix() throws IOException {
        String base = "job: cache-updater\nengine: flink\ntarget: flink-session\nartifact: x.jar\n";
        assertTrue(message(base + "paralellism: 2\n").contains("did you mean 'parallelism'"));
        assertTrue(message(base + "parallelism: two\n").contains("parallelism must be a whole number"));
        assertTrue(message(base + "restore: sometimes\n").contains("restore must be none or savepoint"));
        assertTrue(message(base.replace("cache-updater", "cache-updator")).contains("is not one of"));
        assertTrue(message(base.replace("artifact: x.jar\n", "")).contains("'artifact' is required"));
        assertTrue(message("- a list\n").contains("a YAML mapping"));
    }

    @Test
    void aConnectorNeedsNoArtifactAndRunsOnlyOnConnect() throws IOException {
        Descriptor d = Descriptor.read(write("job: debezium-postgres\nengine: connect\ntarget: connect\n"
                + "settings:\n  connector.class: io.debezium.connector.postgresql.PostgresConnector\n"));
        assertEquals("nearline-debezium-postgres", d.name());
        assertEquals(
                "io.debezium.connector.postgresql.PostgresConnector",
                d.settings().get("connector.class"));
        assertTrue(message("job: debezium-mysql\nengine: flink\ntarget: flink-session\nartifact: x.jar\n")
                .contains("runs on engine connect"));
        assertTrue(message("job: tracking-join\nengine: connect\ntarget: connect\n")
                .contains("runs on flink or samza"));
    }

    @Test
    void theCacheUpdaterAlsoDeploysAsAConnectSink() throws IOException {
        Descriptor d = Descriptor.read(write("job: cache-updater\nengine: connect\ntarget: connect\n"));
        assertEquals("connect", d.engine());
        assertEquals("", d.artifact(), "the plugin is on the worker's plugin path: no artifact to send");
    }

    private String message(String yaml) throws IOException {
        ClusterException e = assertThrows(ClusterException.class, () -> Descriptor.read(write(yaml)));
        assertEquals(2, e.exitCode());
        return e.getMessage();
    }
}
