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
package io.nearline.localcluster.joinreference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nearline.feedtrackingjoin.core.Events;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.DecoderFactory;

/**
 * The join's outputs as whole records, one JSON line each, every field of the published schema
 * (fragments' documents, scores and features, the broker's fan-out, ranking and model included):
 * what the oracle and the engines are compared on. Two ways in, written apart from the join's codec:
 * the bytes an engine wrote are read with Avro's generic reader against the published schemas; the
 * oracle's records are written out field by field here. A codec that drops or garbles a field shows
 * as a difference.
 */
public final class FullRecords {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** The published schemas, named types first. */
    private static final Map<String, Schema> SCHEMAS = parse(
            "TrackingFragment", "BrokerTrackingEvent", "JoinedTrackingEvent", "OrphanedFragments", "LateTrackingEvent");

    private FullRecords() {}

    // ---- what an engine wrote, read with the generic reader ----

    public static String joined(byte[] avro) {
        return read(avro, "JoinedTrackingEvent");
    }

    public static String orphan(byte[] avro) {
        return read(avro, "OrphanedFragments");
    }

    public static String late(byte[] avro) {
        return read(avro, "LateTrackingEvent");
    }

    private static String read(byte[] avro, String schema) {
        try {
            GenericRecord r = new GenericDatumReader<GenericRecord>(SCHEMAS.get(schema))
                    .read(null, DecoderFactory.get().binaryDecoder(avro, null));
            return generic(r).toString();
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("an output record does not read as " + schema + ": " + e, e);
        }
    }

    /** A datum of the generic reader as JSON: records in field order, maps by key, strings as text. */
    private static JsonNode generic(Object datum) {
        if (datum == null) {
            return JSON.nullNode();
        }
        if (datum instanceof GenericRecord r) {
            ObjectNode n = JSON.objectNode();
            for (Schema.Field f : r.getSchema().getFields()) {
                n.set(f.name(), generic(r.get(f.name())));
            }
            return n;
        }
        if (datum instanceof List<?> list) {
            ArrayNode a = JSON.arrayNode();
            list.forEach(item -> a.add(generic(item)));
            return a;
        }
        if (datum instanceof Map<?, ?> map) {
            ObjectNode n = JSON.objectNode();
            new TreeMap<String, Object>(toStringKeys(map)).forEach((k, v) -> n.set(k, generic(v)));
            return n;
        }
        if (datum instanceof CharSequence s) {
            return JSON.textNode(s.toString());
        }
        if (datum instanceof GenericData.EnumSymbol e) {
            return JSON.textNode(e.toString());
        }
        return MAPPER.valueToTree(datum); // boolean, int, long, double
    }

    private static Map<String, Object> toStringKeys(Map<?, ?> map) {
        Map<String, Object> out = new TreeMap<>();
        map.forEach((k, v) -> out.put(k.toString(), v));
        return out;
    }

    /** The request a record's line is of. */
    public static String requestId(String line) {
        try {
            return MAPPER.readTree(line).path("requestId").asText();
        } catch (IOException e) {
            throw new IllegalArgumentException("not a JSON line: " + line, e);
        }
    }

    // ---- what the oracle derived, written field by field ----

    public static String of(Events.Joined j) {
        ObjectNode n = JSON.objectNode().put("requestId", j.requestId());
        n.set("broker", broker(j.broker()));
        ArrayNode fragments = n.putArray("fragments");
        j.fragments().forEach(f -> fragments.add(fragment(f)));
        n.put("complete", j.complete());
        ArrayNode missing = n.putArray("missingNodes");
        j.missing().stream().sorted().forEach(missing::add); // the schema says sorted
        n.put("joinLatencyMillis", j.joinLatencyMillis());
        n.put("duplicatesDropped", j.duplicatesDropped());
        return n.toString();
    }

    public static String of(Events.Orphan o) {
        ObjectNode n = JSON.objectNode().put("requestId", o.requestId());
        ArrayNode nodes = n.putArray("nodes");
        o.nodes().forEach(nodes::add);
        ArrayNode fragments = n.putArray("fragments");
        o.fragments().forEach(f -> fragments.add(fragment(f)));
        return n.toString();
    }

    public static String of(Events.Late l) {
        ObjectNode n = JSON.objectNode().put("requestId", l.requestId()).put("kind", l.kind());
        n.put("node", l.node());
        n.put("eventTimeMillis", l.ts());
        n.put("reason", l.reason().name());
        return n.toString();
    }

    private static ObjectNode broker(Events.BrokerEvent b) {
        ObjectNode n = JSON.objectNode().put("requestId", b.requestId()).put("eventTimeMillis", b.ts());
        ArrayNode fanout = n.putArray("fanout");
        b.fanout().forEach(fanout::add); // as the broker listed them
        n.put("viewer", b.viewer());
        ArrayNode ranking = n.putArray("ranking");
        b.ranking().forEach(ranking::add);
        n.put("modelVersion", b.modelVersion());
        return n;
    }

    private static ObjectNode fragment(Events.Fragment f) {
        ObjectNode n = JSON.objectNode().put("requestId", f.requestId()).put("node", f.node());
        n.put("eventTimeMillis", f.ts());
        ArrayNode docs = n.putArray("docs");
        for (Events.ScoredDoc d : f.docs()) {
            ObjectNode doc = docs.addObject().put("id", d.id()).put("score", d.score());
            ObjectNode features = doc.putObject("features");
            new TreeMap<>(d.features()).forEach(features::put);
        }
        return n;
    }

    private static Map<String, Schema> parse(String... names) {
        Schema.Parser parser = new Schema.Parser();
        Map<String, Schema> out = new TreeMap<>();
        for (String name : names) {
            String path = "/avro/io/nearline/tracking/" + name + ".avsc";
            try (InputStream in = FullRecords.class.getResourceAsStream(path)) {
                if (in == null) {
                    throw new IllegalStateException("the published schema " + path + " is not on the classpath");
                }
                out.put(name, parser.parse(in));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return out;
    }
}
