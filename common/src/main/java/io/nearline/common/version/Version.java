package io.nearline.common.version;

import java.util.Comparator;
import java.util.Objects;

/**
 * The version of a record: its SCN, then the schema version the payload was written with.
 *
 * <p>Ordering rule (docs/semantics.md): a write replaces what is stored iff its version is greater. SCN
 * decides first; at equal SCN a higher schema version wins, because it is a re-serialisation of the
 * same commit under a newer schema. Equal versions are the same write (a duplicate).
 */
public record Version(Scn scn, int schemaVersion) implements Comparable<Version> {

    /** Nothing stored: below every real version. */
    public static final Version NONE = new Version(Scn.NONE, 0);

    private static final Comparator<Version> ORDER =
            Comparator.comparing(Version::scn).thenComparingInt(Version::schemaVersion);

    public Version {
        Objects.requireNonNull(scn, "scn");
        if (schemaVersion < 0) {
            throw new IllegalArgumentException("schemaVersion must be >= 0, got " + schemaVersion);
        }
    }

    public static Version of(long scn, int schemaVersion) {
        return new Version(Scn.of(scn), schemaVersion);
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
        return isNone() ? "Version.NONE" : scn + "/v" + schemaVersion;
    }
}
