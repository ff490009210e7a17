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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

class VersionTest {

    @Test
    void scnDecidesFirst() {
        assertTrue(Version.of(11, 1).isNewerThan(Version.of(10, 9)));
        assertFalse(Version.of(10, 9).isNewerThan(Version.of(11, 1)));
    }

    @Test
    void equalScnWithHigherSchemaVersionWins() {
        assertTrue(Version.of(10, 3).isNewerThan(Version.of(10, 2)));
    }

    @Test
    void sequenceDecidesBetweenScnAndSchemaVersion() {
        assertTrue(Version.of(10, 5, 0).isNewerThan(Version.of(10, 4, 9)));
        assertTrue(Version.of(10, 1, 0).isNewerThan(Version.of(10, 9)), "a sequence beats none at one SCN");
        assertTrue(Version.of(11, 0).isNewerThan(Version.of(10, Long.MAX_VALUE, 9)), "the SCN decides first");
        assertEquals(Version.of(10, 0, 3), Version.of(10, 3));
        assertThrows(IllegalArgumentException.class, () -> Version.of(1, -1L, 0));
    }

    @Test
    void equalVersionsAreEqual() {
        assertEquals(0, Version.of(10, 2).compareTo(Version.of(10, 2)));
        assertEquals(Version.of(10, 2), Version.of(10, 2));
    }

    @Test
    void noneSortsBelowEverything() {
        assertTrue(Version.of(0, 0).isNewerThan(Version.NONE));
        assertTrue(Scn.of(0).isAfter(Scn.NONE));
        assertTrue(Version.NONE.isNone());
    }

    @Test
    void negativeScnIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> Scn.of(-1));
        assertThrows(IllegalArgumentException.class, () -> new Scn(-2));
        assertThrows(IllegalArgumentException.class, () -> Version.of(1, -1));
    }

    @Property
    void orderIsAntisymmetricAndConsistentWithEquals(
            @ForAll @LongRange(max = 50) long s1,
            @ForAll @IntRange(max = 3) int v1,
            @ForAll @LongRange(max = 50) long s2,
            @ForAll @IntRange(max = 3) int v2) {
        Version a = Version.of(s1, v1);
        Version b = Version.of(s2, v2);
        assertEquals(Integer.signum(a.compareTo(b)), -Integer.signum(b.compareTo(a)));
        assertEquals(a.compareTo(b) == 0, a.equals(b));
    }

    @Property
    void sortingAnyPermutationGivesScnThenSchemaOrder(@ForAll long seed) {
        List<Version> versions = new ArrayList<>();
        for (int s = 0; s < 5; s++) {
            for (int v = 0; v < 3; v++) {
                versions.add(Version.of(s, v));
            }
        }
        List<Version> expected = List.copyOf(versions);
        Collections.shuffle(versions, new Random(seed));
        Collections.sort(versions);
        assertEquals(expected, versions);
    }
}
