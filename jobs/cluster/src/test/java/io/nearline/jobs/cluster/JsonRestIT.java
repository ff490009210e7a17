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
package io.nearline.jobs.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import io.nearline.common.testkit.LocalProcesses;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A daemon's REST API as the cluster commands meet it, played by an HTTP server on loopback: answers
 * read as JSON, and each way it can fail turned into the one line and exit code the user sees (a path
 * it does not know: 2; a refusal, with Kafka Connect's message: 1; no answer: 2, saying what to run).
 */
class JsonRestIT {

    private static final Duration LIMIT = Duration.ofSeconds(5);

    private HttpServer server;
    private String base;
    private volatile String lastBody;
    private volatile String lastContentType;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        Map<String, Object[]> answers = Map.of(
                "/overview", new Object[] {200, "{\"taskmanagers\": 1}"},
                "/empty", new Object[] {204, ""},
                "/refused",
                        new Object[] {409, "{\"error_code\": 409, \"message\": \"Connector c is being rebalanced\"}"},
                "/broken", new Object[] {500, "<html>Internal error</html>"});
        server.createContext("/", exchange -> {
            lastBody = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            lastContentType = exchange.getRequestHeaders().getFirst("Content-Type");
            Object[] answer = answers.getOrDefault(exchange.getRequestURI().getPath(), new Object[] {404, "{}"});
            byte[] body = ((String) answer[1]).getBytes(StandardCharsets.UTF_8);
            int status = (Integer) answer[0];
            exchange.sendResponseHeaders(status, status == 204 ? -1 : body.length);
            if (status != 204) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            }
            exchange.close();
        });
        server.start();
        base = "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private JsonNode get(String path) {
        return JsonRest.call(
                "the Flink cluster", base, path, HttpRequest.newBuilder().GET(), LIMIT);
    }

    @Test
    void anAnswerIsItsJsonAndAnEmptyOneAnEmptyObject() {
        assertEquals(1, get("/overview").path("taskmanagers").asInt());
        JsonNode empty = get("/empty");
        assertTrue(empty.isObject() && empty.isEmpty(), empty.toString());
    }

    @Test
    void aBodyIsSentAsJson() {
        JsonRest.call(
                "the Kafka Connect worker",
                base,
                "/overview",
                JsonRest.withBody(HttpRequest.newBuilder(), "PUT", Map.of("connector.class", "Sink")),
                LIMIT);
        assertEquals("application/json", lastContentType);
        assertEquals("{\"connector.class\":\"Sink\"}", lastBody);
    }

    @Test
    void aPathItDoesNotKnowIsTheUsersMistake() {
        ClusterException e = assertThrows(ClusterException.class, () -> get("/jobs/nope"));
        assertEquals(2, e.exitCode());
        assertEquals("not found on the Flink cluster at " + base + ": /jobs/nope", e.getMessage());
    }

    @Test
    void aRefusalIsTheClustersWithItsOwnMessage() {
        ClusterException refused = assertThrows(ClusterException.class, () -> get("/refused"));
        assertEquals(1, refused.exitCode());
        assertEquals(
                "the Flink cluster answered 409 to /refused: Connector c is being rebalanced", refused.getMessage());

        ClusterException broken = assertThrows(ClusterException.class, () -> get("/broken"));
        assertEquals(1, broken.exitCode());
        assertTrue(broken.getMessage().endsWith(": <html>Internal error</html>"), "the body as it is: " + broken);
    }

    @Test
    void noAnswerSaysWhatToRun() throws IOException {
        String nobody = "http://127.0.0.1:" + LocalProcesses.freePort();
        ClusterException e = assertThrows(
                ClusterException.class,
                () -> JsonRest.call("the Flink cluster", nobody, "/overview", HttpRequest.newBuilder(), LIMIT));
        assertEquals(2, e.exitCode());
        assertTrue(e.getMessage().startsWith("the Flink cluster at " + nobody + " is unreachable"), e.getMessage());
        assertTrue(e.getMessage().contains("'bin/nearline cluster status'"), e.getMessage());
        assertFalse(e.getMessage().contains("(null)"), "says why: " + e.getMessage());
    }
}
