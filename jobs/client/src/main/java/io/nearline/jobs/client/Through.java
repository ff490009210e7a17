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
package io.nearline.jobs.client;

import io.nearline.common.version.Version;

/**
 * How far the cache holds a table: the oldest of the table's published consistent-through entries, one
 * per input partition and writing task. Every change of the table committed up to
 * {@code commitTimeMillis}, at or below {@code version}, is in the cache (of the partitions and tasks
 * that published; {@code entries} says how many).
 */
public record Through(long commitTimeMillis, Version version, int entries) {

    /** How far behind the source the cache may be, seen at {@code nowMillis}. */
    public long stalenessMillis(long nowMillis) {
        return Math.max(0, nowMillis - commitTimeMillis);
    }

    /** Whether every change committed at or before {@code position} ({@link CommitPosition}) is in the cache. */
    public boolean passed(long position) {
        return version.scn().value() >= position;
    }
}
