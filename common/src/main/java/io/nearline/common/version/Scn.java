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
package io.nearline.common.version;

/**
 * A system change number: the logical commit timestamp the source of truth assigns per database
 * partition. The SCNs of one key are totally ordered because a key lives in exactly one partition.
 *
 * <p>{@link #NONE} stands for "no SCN known" (nothing stored yet) and sorts below every real SCN.
 */
public record Scn(long value) implements Comparable<Scn> {

    /** No SCN: below every real one. -1 is its value and the only negative one allowed. */
    public static final Scn NONE = new Scn(-1L);

    public Scn {
        if (value < -1L) {
            throw new IllegalArgumentException("SCN must be >= 0, got " + value);
        }
    }

    /** A real SCN; rejects negative values (a negative SCN in input is a bad record, not "none"). */
    public static Scn of(long value) {
        if (value < 0) {
            throw new IllegalArgumentException("SCN must be >= 0, got " + value);
        }
        return new Scn(value);
    }

    public boolean isNone() {
        return value < 0;
    }

    @Override
    public int compareTo(Scn other) {
        return Long.compare(value, other.value);
    }

    public boolean isAfter(Scn other) {
        return compareTo(other) > 0;
    }

    @Override
    public String toString() {
        return isNone() ? "Scn.NONE" : Long.toString(value);
    }
}
