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
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A Kafka Connect worker as a client sees it: the few calls of its REST API that deploys and
 * {@code cluster status} make, where its JMX and Prometheus endpoints answer, and how a connector's
 * config names a secret the worker keeps.
 */
public final class ConnectRest {

    public static final int REST_PORT = 8083;

    /** Where the worker's JMX answers, on the REST API's address: the cache sink's counters (jobs list). */
    public static final int JMX_PORT = 9875;

    /** Where the worker's Prometheus endpoint answers (the JMX exporter with jobs/connect-conf/jmx-exporter.yaml). */
    public static final int PROMETHEUS_PORT = 9404;

    private ConnectRest() {}

    /** The file of the worker's secrets, which only the worker's user may read. */
    public static Path secrets(Path dir) {
        return dir.toAbsolutePath().resolve("connect/secrets.properties");
    }

    /** The reference to a secret the cluster's start kept, resolved by the worker's file config provider. */
    public static String secret(Path dir, String key) {
        return "${file:" + secrets(dir) + ":" + key + "}";
    }

    private static final String WHO = "the Kafka Connect worker";

    public static JsonNode get(String rest, String path) {
        return JsonRest.call(WHO, rest, path, HttpRequest.newBuilder().GET(), Duration.ofSeconds(60));
    }

    public static JsonNode put(String rest, String path, Map<String, String> body) {
        return JsonRest.call(
                WHO, rest, path, JsonRest.withBody(HttpRequest.newBuilder(), "PUT", body), Duration.ofSeconds(60));
    }

    public static JsonNode delete(String rest, String path) {
        return JsonRest.call(WHO, rest, path, HttpRequest.newBuilder().DELETE(), Duration.ofSeconds(60));
    }

    /** The names of the connectors on the worker. */
    public static List<String> connectors(String rest) {
        List<String> out = new ArrayList<>();
        get(rest, "/connectors").forEach(n -> out.add(n.asText()));
        return out;
    }

    /** The connector classes the worker has loaded, or none when it does not answer yet. */
    public static List<String> connectorClasses(String rest) {
        List<String> out = new ArrayList<>();
        try {
            get(rest, "/connector-plugins").forEach(p -> out.add(p.path("class").asText()));
        } catch (ClusterException e) {
            // not up yet
        }
        return out;
    }
}
