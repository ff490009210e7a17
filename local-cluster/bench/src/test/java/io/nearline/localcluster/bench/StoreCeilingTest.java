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
package io.nearline.localcluster.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.nearline.common.avro.ChangeEvent;
import io.nearline.common.cache.CacheRecordCodec;
import io.nearline.common.config.Config;
import io.nearline.common.events.ChangeEventText;
import io.nearline.common.events.ChangeEvents;
import io.nearline.common.store.CacheStore;
import io.nearline.common.store.CacheStores;
import io.nearline.common.testkit.ChangeEventGenerator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bench's ceilings do the work they are named for, checked on the embedded store against each
 * key's newest change read from the file apart from the code under test: the ordered ceiling ends with
 * every key at its newest change whatever the order the file gives them in; the blind ceiling, with no
 * version check, does so only where the file is in order, and its control (the file reversed, one key a
 * batch) ends older.
 */
class StoreCeilingTest {

    @TempDir
    Path dir;

    private Path events(boolean reversed) throws Exception {
        Path file = dir.resolve("events.jsonl");
        ChangeEventGenerator.write(file, 2_000, 50, 7);
        if (reversed) {
            List<String> lines = new ArrayList<>(Files.readAllLines(file));
            Collections.reverse(lines);
            Files.write(file, lines);
        }
        return file;
    }

    /** Each key's change with the highest SCN in the file (a key stays on one partition). */
    private static Map<String, ChangeEvent> newestByKey(Path file) throws Exception {
        Map<String, ChangeEvent> newest = new HashMap<>();
        for (String line : Files.readAllLines(file)) {
            ChangeEvent e = ChangeEventText.parse(line).event();
            newest.merge(e.getKey().toString(), e, (a, b) -> b.getScn() > a.getScn() ? b : a);
        }
        return newest;
    }

    private Config store(String name, int batchKeys) {
        return Config.of(Map.of(
                "cache.store", "rocksdb",
                "rocksdb.path", dir.resolve(name).toString(),
                "write.batch.max-keys", Integer.toString(batchKeys)));
    }

    /** The keys whose stored version is not their newest change's. */
    private static List<String> notNewest(Config config, Map<String, ChangeEvent> newest) {
        List<String> wrong = new ArrayList<>();
        try (CacheStore store = CacheStores.open(config)) {
            newest.forEach((key, e) -> {
                Object expected = ChangeEvents.cacheRecord(e).version();
                Object stored = store.get(ChangeEvents.cacheKey(e))
                        .map(s -> CacheRecordCodec.decodeVersion(s.value()))
                        .orElse(null);
                if (!expected.equals(stored)) {
                    wrong.add(key);
                }
            });
        }
        return wrong;
    }

    @Test
    void theOrderedCeilingEndsWithEveryKeyAtItsNewestChangeInAnyOrder() throws Exception {
        for (boolean reversed : new boolean[] {false, true}) {
            Path file = events(reversed);
            Config config = store("ordered-" + reversed, 1);
            // the rate is the bench's to measure (a run this short may be too quick to rate): here, the work
            StoreCeiling.measure(file, config, 2);
            assertEquals(List.of(), notNewest(config, newestByKey(file)), "reversed: " + reversed);
        }
    }

    @Test
    void theBlindCeilingKeepsTheNewestOnlyWhereTheFileIsInOrder() throws Exception {
        Path inOrder = events(false);
        Config forward = store("blind-forward", 1);
        StoreCeiling.measureBlind(inOrder, forward, 2);
        assertEquals(List.of(), notNewest(forward, newestByKey(inOrder)));

        // the control: newest first, a batch a key, nothing compared: the older changes are written last
        Path reversed = events(true);
        Config backward = store("blind-reversed", 1);
        StoreCeiling.measureBlind(reversed, backward, 2);
        List<String> older = notNewest(backward, newestByKey(reversed));
        assertNotEquals(List.of(), older, "a blind write lets an older change overwrite a newer one");
    }
}
