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
package io.nearline.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import io.nearline.common.testkit.Layout;
import io.nearline.common.testkit.ProductionIsolation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The layout's rules (docs/architecture.md), all derived from {@link Layout#FLOORS}. The front door
 * sees every tool and the jobs they run, so the class rules are checked here; the module rule reads
 * the POMs, because a test-scoped dependency shows only there; the package rule reads the sources.
 */
class LayoutTest {

    /** Tests run in the module's folder, cli. */
    private static final Path CHECKOUT = Path.of("..").toAbsolutePath().normalize();

    /** Planted breaches of the class rules (common's self-test): they must look like what they stand for. */
    private static final List<String> PLANTED_FIXTURES = List.of(
            "io.nearline.localcluster.fake", "io.nearline.jobs.fake", "io.nearline.cli.fake", "org.apache.flink.fake");

    private static final Pattern ARTIFACT =
            Pattern.compile("</parent>.*?<artifactId>([\\w.-]+)</artifactId>", Pattern.DOTALL);
    private static final Pattern OUR_DEPENDENCY =
            Pattern.compile("<dependency>\\s*<groupId>io\\.nearline</groupId>\\s*<artifactId>([\\w.-]+)</artifactId>");
    private static final Pattern PACKAGE = Pattern.compile("(?m)^package ([\\w.]+);");

    @Test
    void toolsAndJobsOnOneClasspathKeepTheClassRules() {
        ProductionIsolation.check();
    }

    @Test
    void noModuleDependsOnAFloorAboveItsOwnInAnyScope() {
        Map<String, String> modules = modules();
        Map<String, String> folderOf = new TreeMap<>();
        modules.forEach((folder, pom) -> folderOf.put(artifactOf(pom), folder));
        List<String> breaches = new ArrayList<>();
        modules.forEach((folder, pom) -> breaches.addAll(arrowsUp(folder, pom, folderOf)));
        assertEquals(List.of(), breaches, "a module depends on a floor above its own (Layout.FLOORS)");
    }

    @Test
    void theModuleRuleSeesAPlantedArrowUpInTestScope() {
        String planted = """
                <parent><artifactId>cache-updater</artifactId></parent>
                <artifactId>store-x</artifactId>
                <dependencies>
                  <dependency>
                    <groupId>io.nearline</groupId>
                    <artifactId>local-cluster-kit</artifactId>
                    <scope>test</scope>
                  </dependency>
                  <dependency>
                    <groupId>io.nearline</groupId>
                    <artifactId>nearline-common</artifactId>
                  </dependency>
                </dependencies>""";
        Map<String, String> folderOf = Map.of("local-cluster-kit", "local-cluster/kit", "nearline-common", "common");
        assertEquals(
                List.of("cache-updater/store-x -> local-cluster/kit (local-cluster-kit)"),
                arrowsUp("cache-updater/store-x", planted, folderOf));
        assertEquals(List.of(), arrowsUp("cli", planted, folderOf), "the front door may use anything below it");
    }

    @Test
    void theModuleRuleKeepsTheOperatorsToolsBelowTheLocalStack() {
        String deployOnTheLocalKit = """
                <parent><artifactId>nearline-parent</artifactId></parent>
                <artifactId>jobs-x</artifactId>
                <dependencies>
                  <dependency>
                    <groupId>io.nearline</groupId>
                    <artifactId>local-cluster-kit</artifactId>
                  </dependency>
                </dependencies>""";
        String aJobOnTheDeployTool = """
                <parent><artifactId>cache-updater</artifactId></parent>
                <artifactId>store-x</artifactId>
                <dependencies>
                  <dependency>
                    <groupId>io.nearline</groupId>
                    <artifactId>jobs-deploy</artifactId>
                    <scope>test</scope>
                  </dependency>
                </dependencies>""";
        Map<String, String> folderOf = Map.of("local-cluster-kit", "local-cluster/kit", "jobs-deploy", "jobs/deploy");
        assertEquals(
                List.of("jobs/x -> local-cluster/kit (local-cluster-kit)"),
                arrowsUp("jobs/x", deployOnTheLocalKit, folderOf));
        assertEquals(
                List.of("cache-updater/store-x -> jobs/deploy (jobs-deploy)"),
                arrowsUp("cache-updater/store-x", aJobOnTheDeployTool, folderOf));
        String localOnTheDeployTool = aJobOnTheDeployTool.replace("<scope>test</scope>", "");
        assertEquals(
                List.of(),
                arrowsUp("local-cluster/x", localOnTheDeployTool, folderOf),
                "the local stack may use the operators' tools below it");
    }

    /**
     * No package cycle in test code either: every module's main and test classes as built, one package
     * a slice (a test kit that uses its module's package and that package's tests that use the kit
     * would be one). Modules the reactor builds after this one are read as their last build left them.
     */
    @Test
    void noPackageCycleInMainOrTestCode() {
        JavaClasses built = builtClasses(location -> PLANTED_CYCLES.stream().noneMatch(location::contains));
        assertTrue(built.size() > 500, "classes read: " + built.size() + " (build the modules first)");
        ProductionIsolation.NO_PACKAGE_CYCLES.check(built);
    }

    /** The control: the same read with common's planted cycle left in fails. */
    @Test
    void theTestCodeCycleRuleSeesThePlantedCycle() {
        JavaClasses withPlanted = builtClasses(location -> !location.contains("/fake/"));
        assertThrows(AssertionError.class, () -> ProductionIsolation.NO_PACKAGE_CYCLES.check(withPlanted));
    }

    /** Planted breaches of the rules (common's self-test): a package cycle and a tool's arrows. */
    private static final List<String> PLANTED_CYCLES = List.of("/cyclefixture/", "/fake/");

    /** Every module's classes and test classes under target/, where the build left them. */
    private static JavaClasses builtClasses(com.tngtech.archunit.core.importer.ImportOption keep) {
        List<Path> built = new ArrayList<>();
        for (String folder : modules().keySet()) {
            for (String classes : List.of("target/classes", "target/test-classes")) {
                Path dir = CHECKOUT.resolve(folder).resolve(classes);
                if (Files.isDirectory(dir)) {
                    built.add(dir);
                }
            }
        }
        return new ClassFileImporter().withImportOption(keep).importPaths(built);
    }

    /**
     * No package cycle in main code by what the sources import: an import used only by a Javadoc link
     * leaves nothing in the bytecode that {@link #noPackageCycleInMainOrTestCode} reads, yet it ties two
     * packages together for a reader all the same.
     */
    @Test
    void noPackageCycleInMainCodeJavadocLinksIncluded() {
        Map<String, String> sources = new TreeMap<>();
        for (String folder : modules().keySet()) {
            Path root = CHECKOUT.resolve(folder).resolve("src/main/java");
            if (!Files.isDirectory(root)) {
                continue;
            }
            try (Stream<Path> files = Files.walk(root)) {
                for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                    sources.put(CHECKOUT.relativize(f).toString(), Files.readString(f));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        assertTrue(sources.size() > 300, "sources read: " + sources.size());
        assertEquals(List.of(), importCycles(sources), "packages that import each other");
    }

    @Test
    void theSourceCycleRuleSeesACycleThroughAJavadocLink() {
        Map<String, String> planted = Map.of(
                "a/Broker.java",
                "package io.nearline.x.kafka;\nimport io.nearline.x.processes.Forked;\n"
                        + "/** Started in a JVM of its own ({@link Forked}). */\npublic interface Broker {}\n",
                "b/Forked.java",
                "package io.nearline.x.processes;\nimport io.nearline.x.kafka.Broker;\n"
                        + "public final class Forked implements Broker {}\n");
        assertEquals(List.of("io.nearline.x.kafka <-> io.nearline.x.processes"), importCycles(planted));
        assertEquals(List.of(), importCycles(Map.of("b/Forked.java", planted.get("b/Forked.java"))));
    }

    /** An import of ours: its package (lower-case segments), then a class and maybe a member. */
    private static final Pattern IMPORT =
            Pattern.compile("(?m)^import (?:static )?(io\\.nearline(?:\\.[a-z][a-z0-9_]*)+)\\.[A-Z]\\w*(?:\\.\\w+)*;");

    /** Pairs of packages whose sources import each other (the cycles a reader meets first), as "a <-> b". */
    private static List<String> importCycles(Map<String, String> sources) {
        Map<String, java.util.Set<String>> imports = new TreeMap<>();
        for (String text : sources.values()) {
            Matcher p = PACKAGE.matcher(text);
            if (!p.find()) {
                continue;
            }
            java.util.Set<String> to = imports.computeIfAbsent(p.group(1), k -> new java.util.TreeSet<>());
            Matcher m = IMPORT.matcher(text);
            while (m.find()) {
                if (!m.group(1).equals(p.group(1))) {
                    to.add(m.group(1));
                }
            }
        }
        List<String> cycles = new ArrayList<>();
        imports.forEach((from, tos) -> tos.stream()
                .filter(to -> from.compareTo(to) < 0
                        && imports.getOrDefault(to, java.util.Set.of()).contains(from))
                .forEach(to -> cycles.add(from + " <-> " + to)));
        return cycles;
    }

    @Test
    void everyClassIsInItsModulesPackage() {
        List<String> misplaced = new ArrayList<>();
        modules().keySet().forEach(folder -> misplaced.addAll(misplacedClasses(folder)));
        assertEquals(List.of(), misplaced, "a module's classes live under Layout.packageOf(its folder)");
    }

    @Test
    void thePackageRuleSeesAMisplacedClassAndDerivesTheNames() {
        assertEquals("io.nearline.cacheupdater.storeredis", Layout.packageOf("cache-updater/store-redis"));
        assertEquals("io.nearline.lxctestbed.drillrunner", Layout.packageOf("lxc-testbed/drill-runner"));
        assertEquals("io.nearline.cli", Layout.packageOf("cli"));
        assertEquals(false, inPackageOf("cache-updater/store-redis", "io.nearline.store.redis"));
        assertEquals(false, inPackageOf("cache-updater/store-redis", "io.nearline.cacheupdater.storeredisx"));
        assertEquals(true, inPackageOf("cache-updater/store-redis", "io.nearline.cacheupdater.storeredis.testkit"));
    }

    /** Every Maven module with sources, by its folder relative to the checkout, with its POM's text. */
    private static Map<String, String> modules() {
        Map<String, String> modules = new TreeMap<>();
        try (Stream<Path> poms = Files.walk(CHECKOUT)) {
            for (Path pom : poms.filter(p -> p.endsWith("pom.xml")
                            && !p.toString().contains("/target/")
                            && !p.getParent().equals(CHECKOUT))
                    .toList()) {
                modules.put(CHECKOUT.relativize(pom.getParent()).toString(), Files.readString(pom));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return modules;
    }

    private static String artifactOf(String pom) {
        Matcher m = ARTIFACT.matcher(pom);
        return m.find() ? m.group(1) : "";
    }

    /** The dependencies (any scope) of a module on a module of a floor above its own. */
    private static List<String> arrowsUp(String folder, String pom, Map<String, String> folderOf) {
        List<String> found = new ArrayList<>();
        Matcher m = OUR_DEPENDENCY.matcher(pom);
        while (m.find()) {
            String target = folderOf.get(m.group(1));
            if (target != null && Layout.floorOf(target) > Layout.floorOf(folder)) {
                found.add(folder + " -> " + target + " (" + m.group(1) + ")");
            }
        }
        return found;
    }

    private static List<String> misplacedClasses(String folder) {
        List<String> misplaced = new ArrayList<>();
        for (String tree : List.of("src/main/java", "src/test/java")) {
            Path root = CHECKOUT.resolve(folder).resolve(tree);
            if (!Files.isDirectory(root)) {
                continue;
            }
            try (Stream<Path> sources = Files.walk(root)) {
                for (Path source :
                        sources.filter(p -> p.toString().endsWith(".java")).toList()) {
                    Matcher m = PACKAGE.matcher(Files.readString(source));
                    String pkg = m.find() ? m.group(1) : "";
                    if (!inPackageOf(folder, pkg) && !PLANTED_FIXTURES.contains(pkg)) {
                        misplaced.add(CHECKOUT.relativize(source) + ": package " + pkg);
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return misplaced;
    }

    private static boolean inPackageOf(String folder, String pkg) {
        String root = Layout.packageOf(folder);
        return pkg.equals(root) || pkg.startsWith(root + ".");
    }
}
