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

import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.ObjLongConsumer;

/**
 * The join's timers kept in memory, for an engine that does not keep them itself (Samza, which
 * rebuilds them from its store at start; the local reference run): a time asked for twice by a request
 * is kept once, and times fire in order, each time's requests in the order they asked.
 */
public final class InMemoryTimers {

    private final TreeMap<Long, LinkedHashSet<String>> byTime = new TreeMap<>();

    public void register(String requestId, long time) {
        byTime.computeIfAbsent(time, t -> new LinkedHashSet<>()).add(requestId);
    }

    public void delete(String requestId, long time) {
        Set<String> requests = byTime.get(time);
        if (requests != null && requests.remove(requestId) && requests.isEmpty()) {
            byTime.remove(time);
        }
    }

    public void clear() {
        byTime.clear();
    }

    /** Fires every time at or before {@code watermark} in time order, including times registered while firing. */
    public void fireUpTo(long watermark, ObjLongConsumer<String> fire) {
        while (!byTime.isEmpty() && byTime.firstKey() <= watermark) {
            Map.Entry<Long, LinkedHashSet<String>> due = byTime.pollFirstEntry();
            for (String requestId : due.getValue()) {
                fire.accept(requestId, due.getKey());
            }
        }
    }
}
