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

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * JSON over HTTP to a daemon's REST API (Flink's, Kafka Connect's), its failures as one-line
 * {@link ClusterException}s naming the daemon: a path it does not know is the user's mistake (exit 2),
 * a refusal the cluster's (exit 1), no answer an unreachable cluster (exit 2).
 */
public final class JsonRest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();

    private JsonRest() {}

    /** A request body of {@code value} as JSON. */
    public static HttpRequest.Builder withBody(HttpRequest.Builder request, String method, Object value) {
        try {
            return request.header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(value)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Sends {@code request} to {@code base + path} of {@code who} (e.g. "the Flink cluster"); the answer's JSON. */
    public static JsonNode call(String who, String base, String path, HttpRequest.Builder request, Duration timeout) {
        try {
            HttpResponse<String> r = HTTP.send(
                    request.uri(URI.create(base + path)).timeout(timeout).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() == 404) {
                throw new ClusterException("not found on " + who + " at " + base + ": " + path);
            }
            if (r.statusCode() >= 300) {
                throw ClusterException.failed(
                        who + " answered " + r.statusCode() + " to " + path + ": " + message(r.body()));
            }
            return r.body().isEmpty() ? JSON.createObjectNode() : JSON.readTree(r.body());
        } catch (IOException e) {
            String why = e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
            throw new ClusterException(
                    who + " at " + base + " is unreachable (" + why + "): is it up? 'bin/nearline cluster status'");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ClusterException("interrupted");
        }
    }

    /** An error body's {@code message} (Kafka Connect's form), else the body as it is. */
    private static String message(String body) {
        try {
            return JSON.readTree(body).path("message").asText(body);
        } catch (IOException | RuntimeException e) {
            return body;
        }
    }
}
