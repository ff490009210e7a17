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
package io.nearline.localcluster.microbench;

import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Runs {@link ScnOrderedWriteBenchmark} (JMH options may be given as on JMH's own command line, e.g.
 * {@code -f 3 -i 8}) and prints, per key order, what an applied ordered write costs against a blind
 * put: blind / ordered throughput, with its error (the two 99.9 % intervals JMH reports, propagated
 * as relative errors in quadrature). Within one run, so the machine's noise hits both sides alike.
 */
public final class OrderedWriteRatio {

    private OrderedWriteRatio() {}

    public static void main(String[] args) throws RunnerException, Exception {
        Options options = new OptionsBuilder()
                .parent(new CommandLineOptions(args))
                .include(ScnOrderedWriteBenchmark.class.getSimpleName())
                .build();
        Collection<RunResult> results = new Runner(options).run();
        Map<String, double[]> blind = new TreeMap<>();
        Map<String, double[]> ordered = new TreeMap<>();
        for (RunResult r : results) {
            String order = r.getParams().getParam("keyOrder");
            String name = r.getParams().getBenchmark();
            double[] score = {
                r.getPrimaryResult().getScore(), r.getPrimaryResult().getScoreError()
            };
            if (name.endsWith(".blindUpsert")) {
                blind.put(order, score);
            } else if (name.endsWith(".orderedWriteNewer")) {
                ordered.put(order, score);
            }
        }
        System.out.println();
        System.out.println("applied ordered write vs blind put (cost = blind ops/s / ordered ops/s):");
        for (String order : blind.keySet()) {
            double[] b = blind.get(order);
            double[] o = ordered.get(order);
            if (o == null) {
                continue;
            }
            double cost = b[0] / o[0];
            double error = cost * Math.sqrt(Math.pow(b[1] / b[0], 2) + Math.pow(o[1] / o[0], 2));
            System.out.printf(
                    "  keys %-10s blind %,.0f ± %,.0f  ordered %,.0f ± %,.0f  cost %.2f ± %.2f (target ≤ 1.3)%n",
                    order, b[0], b[1], o[0], o[1], cost, error);
        }
    }
}
