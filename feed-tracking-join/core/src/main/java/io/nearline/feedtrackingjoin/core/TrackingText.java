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
package io.nearline.feedtrackingjoin.core;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The JSON-lines forms of tracking events (docs/semantics.md), one object per line:
 * index fragment {@code {"requestId","node","ts","docs":[{"id","score","features":{name:value...}}...]}}
 * (features optional),
 * broker event {@code {"requestId","ts","fanout":[node...],"viewer","ranking":[...],"modelVersion"}},
 * joined event {@code {"requestId","complete","nodes":[...],"missing":[...],"fragments":n,"duplicatesDropped",
 * "joinLatencyMillis","viewer","modelVersion"}}, orphan {@code {"requestId","nodes":[...]}},
 * late {@code {"requestId","kind","node","ts","reason"}} (node only for fragments). A line that is not a valid event throws
 * {@link IllegalArgumentException} with the reason.
 */
public final class TrackingText {

    private static final ObjectMapper JSON = new ObjectMapper();

    private TrackingText() {}

    // JsonNode.fields() is deprecated in Jackson 2.19, but its successor is missing from the 2.13 line
    // that Samza jobs run with.
    @SuppressWarnings("deprecation")
    public static Events.Fragment fragment(String line) {
        JsonNode n = object(line);
        List<Events.ScoredDoc> docs = new ArrayList<>();
        for (JsonNode d : n.path("docs")) {
            Map<String, Double> features = new TreeMap<>();
            d.path("features")
                    .fields()
                    .forEachRemaining(e -> features.put(e.getKey(), e.getValue().asDouble()));
            docs.add(new Events.ScoredDoc(d.path("id").asText(), d.path("score").asDouble(), features));
        }
        return new Events.Fragment(text(n, "requestId"), text(n, "node"), number(n, "ts"), docs);
    }

    public static Events.BrokerEvent broker(String line) {
        JsonNode n = object(line);
        if (!n.path("fanout").isArray() || n.path("fanout").isEmpty()) {
            throw new IllegalArgumentException("a broker event needs a non-empty \"fanout\" array");
        }
        Set<String> fanout = new LinkedHashSet<>();
        n.path("fanout").forEach(f -> fanout.add(f.asText()));
        List<String> ranking = new ArrayList<>();
        n.path("ranking").forEach(r -> ranking.add(r.asText()));
        return new Events.BrokerEvent(
                text(n, "requestId"),
                number(n, "ts"),
                fanout,
                n.path("viewer").asText(""),
                ranking,
                n.path("modelVersion").asText(""));
    }

    public static String format(Events.Fragment f) {
        ObjectNode n = JSON.createObjectNode()
                .put("requestId", f.requestId())
                .put("node", f.node())
                .put("ts", f.ts());
        ArrayNode docs = n.putArray("docs");
        for (Events.ScoredDoc d : f.docs()) {
            ObjectNode doc = docs.addObject().put("id", d.id()).put("score", d.score());
            if (!d.features().isEmpty()) {
                ObjectNode features = doc.putObject("features");
                d.features().forEach(features::put);
            }
        }
        return n.toString();
    }

    public static String format(Events.BrokerEvent b) {
        ObjectNode n = JSON.createObjectNode().put("requestId", b.requestId()).put("ts", b.ts());
        ArrayNode fanout = n.putArray("fanout");
        b.fanout().forEach(fanout::add);
        n.put("viewer", b.viewer());
        ArrayNode ranking = n.putArray("ranking");
        b.ranking().forEach(ranking::add);
        n.put("modelVersion", b.modelVersion());
        return n.toString();
    }

    public static String format(Events.Joined j) {
        ObjectNode n = JSON.createObjectNode().put("requestId", j.requestId()).put("complete", j.complete());
        ArrayNode nodes = n.putArray("nodes");
        j.fragments().stream().map(Events.Fragment::node).sorted().forEach(nodes::add);
        ArrayNode missing = n.putArray("missing");
        j.missing().forEach(missing::add);
        n.put("fragments", j.fragments().size());
        n.put("duplicatesDropped", j.duplicatesDropped());
        n.put("joinLatencyMillis", j.joinLatencyMillis());
        n.put("viewer", j.broker().viewer());
        n.put("modelVersion", j.broker().modelVersion());
        return n.toString();
    }

    public static String format(Events.Orphan o) {
        ObjectNode n = JSON.createObjectNode().put("requestId", o.requestId());
        ArrayNode nodes = n.putArray("nodes");
        o.nodes().forEach(nodes::add);
        return n.toString();
    }

    public static String format(Events.Late l) {
        ObjectNode n = JSON.createObjectNode().put("requestId", l.requestId()).put("kind", l.kind());
        if (l.node() != null) {
            n.put("node", l.node());
        }
        return n.put("ts", l.ts()).put("reason", l.reason().name()).toString();
    }

    private static JsonNode object(String line) {
        JsonNode n;
        try {
            n = JSON.readTree(line);
        } catch (Exception e) {
            throw new IllegalArgumentException("not JSON: " + e.getMessage().split("\n")[0]);
        }
        if (n == null || !n.isObject()) {
            throw new IllegalArgumentException("not a JSON object");
        }
        return n;
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull() || v.asText().isEmpty()) {
            throw new IllegalArgumentException("missing \"" + field + "\"");
        }
        return v.asText();
    }

    private static long number(JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (v == null || !v.isIntegralNumber()) {
            throw new IllegalArgumentException("\"" + field + "\" must be a whole number, got " + v);
        }
        return v.asLong();
    }
}
