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

import java.util.Comparator;
import java.util.Objects;

/**
 * The version of a record: its SCN, then its sequence within that SCN, then the schema version the
 * payload was written with.
 *
 * <p>Ordering rule (docs/semantics.md): a write replaces what is stored iff its version is greater. SCN
 * decides first. The sequence breaks ties between changes that share one commit position: a source
 * whose SCN alone orders every change (the native text form, the simulator) leaves it 0, and a
 * Debezium source puts the change's own log position there, because its commit position is shared
 * by every change of a transaction (docs/debezium.md). At equal SCN and sequence a higher schema
 * version wins, because it is a re-serialisation of the same commit under a newer schema. Equal
 * versions are the same write (a duplicate).
 */
public record Version(Scn scn, long seq, int schemaVersion) implements Comparable<Version> {

    /** Nothing stored: below every real version. */
    public static final Version NONE = new Version(Scn.NONE, 0, 0);

    private static final Comparator<Version> ORDER =
            Comparator.comparing(Version::scn).thenComparingLong(Version::seq).thenComparingInt(Version::schemaVersion);

    public Version {
        Objects.requireNonNull(scn, "scn");
        if (seq < 0) {
            throw new IllegalArgumentException("seq must be >= 0, got " + seq);
        }
        if (schemaVersion < 0) {
            throw new IllegalArgumentException("schemaVersion must be >= 0, got " + schemaVersion);
        }
    }

    public static Version of(long scn, int schemaVersion) {
        return of(scn, 0, schemaVersion);
    }

    public static Version of(long scn, long seq, int schemaVersion) {
        return new Version(Scn.of(scn), seq, schemaVersion);
    }

    public boolean isNone() {
        return scn.isNone();
    }

    @Override
    public int compareTo(Version other) {
        return ORDER.compare(this, other);
    }

    public boolean isNewerThan(Version other) {
        return compareTo(other) > 0;
    }

    @Override
    public String toString() {
        return isNone() ? "Version.NONE" : scn + (seq == 0 ? "" : "." + seq) + "/v" + schemaVersion;
    }
}
