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
package io.nearline.common.testkit;

import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * The house's floors, by top-level folder, from the bottom up (docs/architecture.md). Every other
 * layout rule is derived from this one list: a module's Java package is its folder path with the
 * dashes dropped ({@code cache-updater/store-redis} → {@code io.nearline.cacheupdater.storeredis}), a
 * module may depend on its own floor and the floors below it, never above, and the tools (in no job
 * artifact) are the floors above the jobs: running them (deploy, the cluster file, the verifier), then
 * the local stack, the testbed and the front door.
 */
public final class Layout {

    /** A floor of the house: the top-level folders on it and whether it holds tools or production code. */
    public record Floor(String name, boolean tools, List<String> folders) {}

    /** Bottom first. */
    public static final List<Floor> FLOORS = List.of(
            new Floor("the model", false, List.of("common")),
            new Floor("the jobs", false, List.of("engines", "cache-updater", "cdc-bootstrap", "feed-tracking-join")),
            new Floor("running the jobs", true, List.of("jobs")),
            new Floor("the local stack", true, List.of("local-cluster")),
            new Floor("the testbed and its drills", true, List.of("lxc-testbed")),
            new Floor("the front door", true, List.of("cli")));

    /** Test kits live in the test code of the module they serve; a package named so is a tool wherever it is. */
    public static final String TEST_KITS = "..testkit..";

    private Layout() {}

    /** The Java package of a module folder (relative to the checkout): {@code io.nearline.} + its path, dashes dropped. */
    public static String packageOf(String folder) {
        return "io.nearline." + folder.replace("-", "").replace('/', '.').toLowerCase(Locale.ROOT);
    }

    /** The floor a module folder (relative to the checkout) stands on, by its top-level folder. */
    public static int floorOf(String folder) {
        String top = folder.split("/", 2)[0];
        for (int i = 0; i < FLOORS.size(); i++) {
            if (FLOORS.get(i).folders().contains(top)) {
                return i;
            }
        }
        throw new IllegalArgumentException(folder + " is on no floor of " + Layout.class.getName());
    }

    /** ArchUnit package patterns of the floors the predicate picks, e.g. {@code io.nearline.localcluster..}. */
    static String[] packages(Predicate<Floor> which) {
        return patterns(FLOORS.stream().filter(which));
    }

    /** Package patterns of every floor above {@code floor}. */
    static String[] packagesAbove(int floor) {
        return patterns(FLOORS.subList(floor + 1, FLOORS.size()).stream());
    }

    /** Package patterns of one floor. */
    static String[] packagesOn(int floor) {
        return patterns(Stream.of(FLOORS.get(floor)));
    }

    private static String[] patterns(Stream<Floor> floors) {
        return floors.flatMap(f -> f.folders().stream())
                .map(folder -> packageOf(folder) + "..")
                .toArray(String[]::new);
    }
}
