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
package io.nearline.lxctestbed.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.nearline.jobs.cluster.YarnRest;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where the follower looks for an application's exporters, from what its deploy wrote and the jobs' Flink config. */
class YarnTargetsTest {

    @TempDir
    Path dir;

    private static YarnRest.App app(String name, String type) {
        return new YarnRest.App("application_17_3", name, "RUNNING", type, "", "UNDEFINED", "");
    }

    @Test
    void aSamzaJobsPortsAreItsDeploysBlockOneAContainer() throws IOException {
        Files.createDirectories(dir.resolve("deploys"));
        Files.writeString(
                dir.resolve("deploys/nearline-cache-updater-samza.properties"),
                "job.name=nearline-cache-updater-samza\njob.container.count=3\n"
                        + "task.execute=bin/run-container-exporting.sh 9504\n");
        YarnTargets targets = new YarnTargets(dir, "http://127.0.0.1:1", Path.of("../.."));
        // YARN names the application job.name_job.id
        YarnTargets.Exporters e = targets.exporters(app("nearline-cache-updater-samza_1", "Samza"))
                .orElseThrow();
        assertEquals("samza-nearline-cache-updater-samza", e.file(), "the deploy's own file, corrected in place");
        assertEquals(Map.of("job", "nearline-cache-updater-samza"), e.labels());
        assertEquals(List.of(9504, 9505, 9506), e.ports());
    }

    @Test
    void aSamzaJobWithItsOwnDeployAndNoExportersIsLeftOut() throws IOException {
        Files.createDirectories(dir.resolve("deploys"));
        Files.writeString(
                dir.resolve("deploys/j.properties"),
                "job.name=j\njob.container.count=2\n" + "task.execute=bin/run-container-exporting.sh 9500\n");
        Files.writeString(dir.resolve("deploys/quiet.properties"), "job.name=quiet\njob.container.count=2\n");
        YarnTargets targets = new YarnTargets(dir, "http://127.0.0.1:1", Path.of("../.."));
        YarnTargets.Exporters e = targets.exporters(app("j_1", "Samza")).orElseThrow();
        assertEquals("samza-j", e.file());
        assertEquals(Map.of("job", "j"), e.labels());
        assertEquals(List.of(9500, 9501), e.ports());
        assertTrue(targets.exporters(app("quiet_1", "Samza")).isEmpty(), "deployed without exporters");
        assertTrue(targets.exporters(app("nobody_1", "Samza")).isEmpty(), "not deployed by us");
        assertTrue(targets.exporters(app("x", "MAPREDUCE")).isEmpty());
        YarnTargets.Exporters flink =
                targets.exporters(app("nearline-join", "Apache Flink")).orElseThrow();
        assertEquals("flink-application_17_3", flink.file());
        assertEquals(9249, flink.ports().get(0), "the jobs' Flink config's reporter range");
        assertEquals(9260, flink.ports().get(flink.ports().size() - 1));
    }

    @Test
    void aContainerBelongsToTheApplicationItsIdNames() {
        assertEquals(
                "application_1732800000000_0004", YarnRest.applicationOf("container_1732800000000_0004_01_000002"));
        assertEquals(
                "application_1732800000000_0004", YarnRest.applicationOf("container_e17_1732800000000_0004_02_000001"));
    }

    /** An exporter is what answers 200 on /metrics; a port nothing listens on, or another answer, is not. */
    @Test
    void onlyWhatAnswersOnMetricsIsATarget() throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/metrics", x -> {
            x.sendResponseHeaders(200, 2);
            x.getResponseBody().write("ok".getBytes());
            x.close();
        });
        server.start();
        HttpServer other = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        other.start(); // answers 404 everywhere
        try {
            assertTrue(YarnTargets.answers("127.0.0.1:" + server.getAddress().getPort()));
            assertFalse(YarnTargets.answers("127.0.0.1:" + other.getAddress().getPort()));
            int closed = other.getAddress().getPort();
            other.stop(0);
            assertFalse(YarnTargets.answers("127.0.0.1:" + closed));
        } finally {
            server.stop(0);
        }
    }
}
