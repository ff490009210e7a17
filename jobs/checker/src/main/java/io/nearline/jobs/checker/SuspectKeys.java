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
package io.nearline.jobs.checker;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * What a continuous check remembers between rounds: the keys the cache did not match, and since when.
 * A key that differs from its row may be a change still on its way to the cache; it is confirmed
 * divergent only when, with its row unchanged since it was first read:
 *
 * <ul>
 *   <li>the job's {@code consistent-through} has passed that first read (every change the read could
 *       see is durable in the cache), and the cache still differs; or
 *   <li>it has differed for the whole allowance (the job's watermark is not known, or stands still: a
 *       job that stopped taking its input, or a change it never received).
 * </ul>
 *
 * A key whose row changed starts again from that read; a key that matches again leaves (it was in
 * flight). The commit times and the read times must come from one clock (here: the database and this
 * machine's).
 */
public final class SuspectKeys {

    /** A key the cache does not match this round; {@code row} null: the database no longer has it. */
    public record Divergent(String table, String key, JsonNode row) {}

    /** A key confirmed divergent, since when it was read as it is, and why it is no longer in flight. */
    public record Confirmed(String table, String key, long sinceMillis, String why) {}

    private record Suspect(String table, JsonNode row, long firstReadAt) {}

    private final long allowanceMillis;
    private Map<String, Suspect> suspects = new HashMap<>();

    public SuspectKeys(Duration allowance) {
        this.allowanceMillis = allowance.toMillis();
    }

    /**
     * One round: the keys that differed in a read of the database that started at {@code readAt}, the
     * cache read after it; {@code consistentThrough}: the job's watermark read before the cache was, in
     * epoch ms (0 when not known). @return the keys confirmed divergent this round
     */
    public List<Confirmed> round(List<Divergent> divergent, long readAt, long consistentThrough) {
        return round(divergent, key -> true, readAt, consistentThrough);
    }

    /**
     * One round that read only some keys ({@code checked}: a slice of each table and the suspects read
     * again): a suspect it did not read stays as it was.
     */
    public List<Confirmed> round(
            List<Divergent> divergent, Predicate<String> checked, long readAt, long consistentThrough) {
        Map<String, Suspect> next = new HashMap<>();
        suspects.forEach((key, s) -> {
            if (!checked.test(key)) {
                next.put(key, s);
            }
        });
        List<Confirmed> confirmed = new ArrayList<>();
        for (Divergent d : divergent) {
            Suspect before = suspects.get(d.key());
            Suspect s = before != null && Objects.equals(before.row(), d.row())
                    ? before
                    : new Suspect(d.table(), d.row(), readAt);
            next.put(d.key(), s);
            if (s.firstReadAt() < readAt && consistentThrough >= s.firstReadAt()) {
                confirmed.add(new Confirmed(
                        d.table(), d.key(), s.firstReadAt(), "the job is durable past the read, the cache differs"));
            } else if (readAt - s.firstReadAt() >= allowanceMillis) {
                confirmed.add(new Confirmed(
                        d.table(),
                        d.key(),
                        s.firstReadAt(),
                        "differs for " + (readAt - s.firstReadAt()) / 1000 + " s, past the allowance"));
            }
        }
        suspects = next;
        return confirmed;
    }

    /**
     * Each key that differed when last read, with its table, the longest suspected first: what the next
     * round reads again (those nearest to being confirmed, where a round reads only some).
     */
    public Map<String, String> suspects() {
        Map<String, String> out = new LinkedHashMap<>();
        suspects.entrySet().stream()
                .sorted(Map.Entry.comparingByValue(Comparator.comparingLong(Suspect::firstReadAt)))
                .forEach(e -> out.put(e.getKey(), e.getValue().table()));
        return out;
    }

    /** The keys that differ but are not confirmed: changes that may still be on their way. */
    public int inFlight(List<Confirmed> confirmedThisRound) {
        return suspects.size() - confirmedThisRound.size();
    }
}
