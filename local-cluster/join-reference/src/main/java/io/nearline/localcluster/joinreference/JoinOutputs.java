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

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nearline.feedtrackingjoin.core.Events;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a join run produced, whole records ({@link FullRecords}) as the sorted JSON lines a replay writes ({@code joined.jsonl},
 * {@code orphans.jsonl}, {@code late.jsonl}): sorted, so two runs compare line by line whatever
 * order the engine emitted in.
 */
public record JoinOutputs(List<String> joined, List<String> orphans, List<String> late) {

    /** The oracle's records, each written out whole ({@link FullRecords#of}). */
    public static JoinOutputs of(List<Events.Joined> joined, List<Events.Orphan> orphans, List<Events.Late> late) {
        return sorted(
                joined.stream().map(FullRecords::of).toList(),
                orphans.stream().map(FullRecords::of).toList(),
                late.stream().map(FullRecords::of).toList());
    }

    /** What an engine wrote, each record read whole with Avro's generic reader ({@link FullRecords#joined}). */
    public static JoinOutputs ofAvro(List<byte[]> joined, List<byte[]> orphans, List<byte[]> late) {
        return sorted(
                joined.stream().map(FullRecords::joined).toList(),
                orphans.stream().map(FullRecords::orphan).toList(),
                late.stream().map(FullRecords::late).toList());
    }

    private static JoinOutputs sorted(List<String> joined, List<String> orphans, List<String> late) {
        List<String> j = new ArrayList<>(joined);
        List<String> o = new ArrayList<>(orphans);
        List<String> l = new ArrayList<>(late);
        Collections.sort(j);
        Collections.sort(o);
        Collections.sort(l);
        return new JoinOutputs(j, o, l);
    }

    /**
     * The outputs with what arrival order may change under {@code join.emit-complete=eager} folded
     * away: a joined request's repeats that came after its emission (late, {@code AFTER_EMISSION})
     * are counted in its {@code duplicatesDropped} with those dropped before it, and leave the late
     * output. Eager outputs folded equal the default outputs folded.
     */
    public JoinOutputs repeatsFolded() {
        Map<String, Integer> after = new HashMap<>();
        List<String> l = new ArrayList<>();
        Set<String> joinedIds = new HashSet<>();
        joined.forEach(line -> joinedIds.add(read(line).get("requestId").asText()));
        for (String line : late) {
            JsonNode n = read(line);
            String requestId = n.get("requestId").asText();
            if ("AFTER_EMISSION".equals(n.path("reason").asText()) && joinedIds.contains(requestId)) {
                after.merge(requestId, 1, Integer::sum);
            } else {
                l.add(line);
            }
        }
        List<String> j = new ArrayList<>();
        for (String line : joined) {
            ObjectNode n = (ObjectNode) read(line);
            int repeats = n.get("duplicatesDropped").asInt()
                    + after.getOrDefault(n.get("requestId").asText(), 0);
            j.add(n.put("duplicatesDropped", repeats).toString());
        }
        Collections.sort(j);
        return new JoinOutputs(j, orphans, l);
    }

    /**
     * The outputs with every event time counted from the earliest one in them: a live run sends the
     * traffic with its event times shifted to now, all by the same amount, and rebased its outputs are
     * the replay's, times included.
     */
    public JoinOutputs rebased() {
        long earliest = Long.MAX_VALUE;
        for (List<String> lines : List.of(joined, orphans, late)) {
            for (String line : lines) {
                Matcher m = EVENT_TIME.matcher(line);
                while (m.find()) {
                    earliest = Math.min(earliest, Long.parseLong(m.group(1)));
                }
            }
        }
        long base = earliest == Long.MAX_VALUE ? 0 : earliest;
        return sorted(rebase(joined, base), rebase(orphans, base), rebase(late, base));
    }

    private static final Pattern EVENT_TIME = Pattern.compile("\"eventTimeMillis\":(-?\\d+)");

    private static List<String> rebase(List<String> lines, long base) {
        return lines.stream()
                .map(line -> EVENT_TIME
                        .matcher(line)
                        .replaceAll(m -> "\"eventTimeMillis\":" + (Long.parseLong(m.group(1)) - base)))
                .toList();
    }

    private static JsonNode read(String line) {
        try {
            return JSON.readTree(line);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not a JSON line: " + line, e);
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    public long complete() {
        return joined.stream()
                .filter(line -> line.contains("\"complete\":true"))
                .count();
    }
}
