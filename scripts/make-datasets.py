#!/usr/bin/env python3
"""Writes the small bundled datasets and datasets/MANIFEST.tsv.

Every expected answer is computed here, independently of pmcount: from a closed form (Kasteleyn's
grid formula, n!, derangement and ménage recurrences, Fibonacci) or by brute force over
permutations (permanents) or pairings (perfect matchings of general graphs) with exact Python
integers / fractions. Run from the repository root:
    python3 scripts/make-datasets.py
"""
import itertools
import math
from fractions import Fraction
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "datasets"


def perm_brute(a):
    """Permanent by summing over all permutations (exact for ints, Fractions, complex ints)."""
    n = len(a)
    total = 0
    for p in itertools.permutations(range(n)):
        term = 1
        for i in range(n):
            term *= a[i][p[i]]
            if term == 0:
                break
        total += term
    return total


def pairings(n, weight):
    """Σ over the perfect matchings of {0..n-1} of Π weight(u, v) (0 for a non-edge): pair the
    lowest free vertex with every later one, memoised on the set of free vertices."""
    from functools import lru_cache

    @lru_cache(maxsize=None)
    def count(free):
        if free == 0:
            return 1
        u = (free & -free).bit_length() - 1
        rest = free & ~(1 << u)
        total = 0
        v_bits = rest
        while v_bits:
            v = (v_bits & -v_bits).bit_length() - 1
            v_bits &= v_bits - 1
            w = weight(u, v)
            if w:
                total += w * count(rest & ~(1 << v))
        return total

    return count((1 << n) - 1)


def edge_weights(edges):
    table = {}
    for u, v, *w in edges:
        table[(u, v)] = table[(v, u)] = w[0] if w else 1
    return lambda u, v: table.get((u, v), 0)


def kasteleyn(m, n):
    p = 1.0
    for j in range(1, (m + 1) // 2 + 1):
        for k in range(1, (n + 1) // 2 + 1):
            p *= 4 * math.cos(math.pi * j / (m + 1)) ** 2 + 4 * math.cos(math.pi * k / (n + 1)) ** 2
    return round(p)


def derangements(n):
    a, b = 1, 0
    if n == 0:
        return 1
    for k in range(2, n + 1):
        a, b = b, (k - 1) * (a + b)
    return b


def menage(n):
    return sum((-1) ** k * 2 * n * math.comb(2 * n - k, k) * math.factorial(n - k) // (2 * n - k)
               for k in range(n + 1))


def fibonacci(k):
    a, b = 0, 1
    for _ in range(k):
        a, b = b, a + b
    return a


def truncated_icosahedron():
    """The edges (u < v) of the truncated icosahedron, vertices in breadth-first order."""
    phi = (1 + 5 ** 0.5) / 2
    points = set()
    for base in [(0, 1, 3 * phi), (1, 2 + phi, 2 * phi), (phi, 2, phi ** 3)]:
        for k in range(3):  # the even (cyclic) permutations
            p = base[k:] + base[:k]
            for signs in itertools.product((1, -1), repeat=3):
                points.add(tuple(round(c * s, 9) for c, s in zip(p, signs)))
    points = sorted(points)
    near = {i: [j for j in range(len(points)) if j != i and
                abs(math.dist(points[i], points[j]) - 2) < 1e-6] for i in range(len(points))}
    order, seen = [0], {0}
    for v in order:
        for u in near[v]:
            if u not in seen:
                seen.add(u)
                order.append(u)
    place = {v: k for k, v in enumerate(order)}
    edges = sorted({tuple(sorted((place[v], place[u]))) for v in near for u in near[v]})
    assert len(points) == 60 and len(edges) == 90
    return edges


def write(name, text):
    (OUT / name).write_text(text)


def grid_edges(m, n):
    for r in range(m):
        for c in range(n):
            v = r * n + c
            if c + 1 < n:
                yield v, v + 1
            if r + 1 < m:
                yield v, v + n


def mm_pattern(a, comment):
    n = len(a)
    entries = [(i + 1, j + 1) for i in range(n) for j in range(n) if a[i][j]]
    lines = ["%%MatrixMarket matrix coordinate pattern general", f"% {comment}",
             f"{n} {n} {len(entries)}"]
    lines += [f"{i} {j}" for i, j in entries]
    return "\n".join(lines) + "\n"


def main():
    manifest = []

    # Grid graphs: undirected edge lists without a header (2-coloured by the reader).
    for m, n in [(6, 6), (4, 7)]:
        name = f"grid_{m}x{n}.edgelist"
        body = "".join(f"{u} {v}\n" for u, v in grid_edges(m, n))
        write(name, f"# {m}x{n} grid graph, vertex r*{n}+c; domino tilings = perfect matchings\n" + body)
        manifest.append((name, "generated (scripts/make-datasets.py)", "CC0",
                         f"domino tilings of the {m}x{n} grid (Kasteleyn's formula)",
                         str(kasteleyn(m, n))))

    # K_{10,10} with a bipartite header.
    write("k_10_10.edgelist", "# bipartite 10 10\n" +
          "".join(f"{i} {j}\n" for i in range(10) for j in range(10)))
    manifest.append(("k_10_10.edgelist", "generated", "CC0", "K_{10,10}: 10!",
                     str(math.factorial(10))))

    # A digraph: the directed 7-cycle with all chords i -> i+2 and self-loops at 0 and 3.
    n = 7
    arcs = [(i, (i + 1) % n) for i in range(n)] + [(i, (i + 2) % n) for i in range(n)]
    arcs += [(0, 0), (3, 3)]
    adjacency = [[0] * n for _ in range(n)]
    for u, v in arcs:
        adjacency[u][v] = 1
    write("digraph_7.edgelist", "# directed 7\n# 7-cycle, chords i->i+2, self-loops at 0 and 3\n" +
          "".join(f"{u} {v}\n" for u, v in arcs))
    manifest.append(("digraph_7.edgelist", "generated", "CC0",
                     "cycle covers (brute force over permutations)", str(perm_brute(adjacency))))

    # Closed-form 0-1 matrices in Matrix Market.
    n = 9
    write("derangements_9.mtx", mm_pattern([[int(i != j) for j in range(n)] for i in range(n)],
                                           "J - I of order 9: derangements"))
    manifest.append(("derangements_9.mtx", "generated", "CC0", "perm(J - I), n = 9: derangements",
                     str(derangements(9))))
    n = 12
    write("menage_12.mtx", mm_pattern([[int(j != i and j != (i + 1) % n) for j in range(n)]
                                       for i in range(n)], "J - I - P of order 12: menage number"))
    manifest.append(("menage_12.mtx", "generated", "CC0", "perm(J - I - P), n = 12: menage number",
                     str(menage(12))))
    n = 20
    write("tridiagonal_20.mtx", mm_pattern([[int(abs(i - j) <= 1) for j in range(n)]
                                            for i in range(n)], "tridiagonal 0-1, order 20"))
    manifest.append(("tridiagonal_20.mtx", "generated", "CC0", "tridiagonal 0-1, n = 20: F(21)",
                     str(fibonacci(21))))

    # An integer matrix with negative entries (brute force, exact).
    a = [[3, -1, 0, 2, 5, -4], [1, 1, -2, 0, 3, 2], [0, 4, 1, -3, 0, 1],
         [-2, 0, 5, 1, 1, 0], [6, 2, 0, -1, 2, 3], [1, -5, 2, 2, 0, 4]]
    lines = ["%%MatrixMarket matrix array integer general", "% signed integer matrix, order 6",
             "6 6"] + [str(a[i][j]) for j in range(6) for i in range(6)]
    write("integer_6.mtx", "\n".join(lines) + "\n")
    manifest.append(("integer_6.mtx", "generated", "CC0", "integer permanent (brute force)",
                     str(perm_brute(a))))

    # A real matrix with dyadic entries: its permanent is an exact binary fraction.
    a = [[Fraction(k % 7 + 1, 8) * (-1 if (i + j) % 5 == 0 else 1) for j, k in
          enumerate(range(i, i + 7))] for i in range(7)]
    lines = ["%%MatrixMarket matrix coordinate real general", "% dyadic real matrix, order 7",
             "7 7 49"] + [f"{i + 1} {j + 1} {float(a[i][j])!r}" for i in range(7) for j in range(7)]
    write("real_7.mtx", "\n".join(lines) + "\n")
    manifest.append(("real_7.mtx", "generated", "CC0", "real permanent (brute force, exact)",
                     repr(float(perm_brute(a)))))

    # A complex (Gaussian integer) symmetric matrix stored as a lower triangle.
    n = 5
    z = [[complex((i * 3 + j) % 4 - 1, (i + 2 * j) % 3 - 1) for j in range(n)] for i in range(n)]
    z = [[z[max(i, j)][min(i, j)] for j in range(n)] for i in range(n)]
    lines = ["%%MatrixMarket matrix coordinate complex symmetric",
             "% Gaussian-integer symmetric matrix, order 5, lower triangle stored"]
    entries = [(i, j) for j in range(n) for i in range(j, n) if z[i][j] != 0]
    lines.append(f"{n} {n} {len(entries)}")
    lines += [f"{i + 1} {j + 1} {int(z[i][j].real)} {int(z[i][j].imag)}" for i, j in entries]
    write("complex_5.mtx", "\n".join(lines) + "\n")
    w = perm_brute(z)
    manifest.append(("complex_5.mtx", "generated", "CC0", "complex permanent (brute force, exact)",
                     f"{int(w.real)}{'+' if w.imag >= 0 else '-'}{abs(int(w.imag))}i"))

    # A reducible 0-1 matrix: diagonal blocks of orders 4, 3, 2 (each fully indecomposable), random
    # entries above them, rows and columns shuffled. Used for the Dulmage–Mendelsohn drawing.
    import random
    rng = random.Random(2026)
    sizes = [4, 3, 2]
    starts = [sum(sizes[:k]) for k in range(len(sizes))]
    n = sum(sizes)
    block = [k for k, size in enumerate(sizes) for _ in range(size)]
    a = [[0] * n for _ in range(n)]
    for k, (start, size) in enumerate(zip(starts, sizes)):
        for i in range(size):
            a[start + i][start + i] = 1
            a[start + i][start + (i + 1) % size] = 1
    for i in range(n):
        for j in range(n):
            if block[i] < block[j] and rng.random() < 0.4:
                a[i][j] = 1
            elif block[i] == block[j] and rng.random() < 0.3:
                a[i][j] = 1
    rows, cols = list(range(n)), list(range(n))
    rng.shuffle(rows)
    rng.shuffle(cols)
    shuffled = [[a[rows[i]][cols[j]] for j in range(n)] for i in range(n)]
    write("reducible_9.mtx", mm_pattern(shuffled, "block triangular 0-1 matrix (blocks 4, 3, 2), shuffled"))
    manifest.append(("reducible_9.mtx", "generated", "CC0",
                     "reducible 0-1 matrix (brute force over permutations)", str(perm_brute(shuffled))))

    # General graphs: undirected edge lists with odd cycles, counted by the general-graph path.
    outer = [(i, (i + 1) % 5) for i in range(5)]
    spokes = [(i, i + 5) for i in range(5)]
    inner = [(5 + i, 5 + (i + 2) % 5) for i in range(5)]
    petersen = outer + spokes + inner
    write("petersen.edgelist", "# undirected 10\n# the Petersen graph: outer 5-cycle, spokes, inner "
          "pentagram\n" + "".join(f"{u} {v}\n" for u, v in petersen))
    manifest.append(("petersen.edgelist", "generated", "CC0",
                     "perfect matchings of the Petersen graph (brute force over pairings)",
                     str(pairings(10, edge_weights(petersen)))))

    # A triangular-lattice patch: the 4x5 grid plus the diagonal (r, c)-(r+1, c+1) of every cell.
    m, n = 4, 5
    triangular = list(grid_edges(m, n)) + [(r * n + c, (r + 1) * n + c + 1)
                                           for r in range(m - 1) for c in range(n - 1)]
    write("triangular_4x5.edgelist",
          f"# undirected {m * n}\n# triangular lattice patch {m}x{n}: grid plus one diagonal per "
          "cell, vertex r*5+c\n" + "".join(f"{u} {v}\n" for u, v in triangular))
    manifest.append(("triangular_4x5.edgelist", "generated", "CC0",
                     "perfect matchings of a 4x5 triangular-lattice patch (brute force over "
                     "pairings)", str(pairings(m * n, edge_weights(triangular)))))

    # A weighted general graph: the Möbius ladder on 8 vertices (rungs i-(i+4), rim i-(i+1)) with
    # signed integer weights; its hafnian.
    rng_w = [3, -1, 2, 5, -2, 1, 4, -3, 2, 7, -1, 1]
    moebius = [(i, (i + 1) % 8) for i in range(8)] + [(i, i + 4) for i in range(4)]
    weighted = [(u, v, rng_w[k]) for k, (u, v) in enumerate(moebius)]
    write("moebius_8_weighted.edgelist",
          "# undirected 8\n# Möbius ladder on 8 vertices with signed integer weights\n" +
          "".join(f"{u} {v} {w}\n" for u, v, w in weighted))
    manifest.append(("moebius_8_weighted.edgelist", "generated", "CC0",
                     "hafnian of a weighted Möbius ladder (brute force over pairings)",
                     str(pairings(8, edge_weights(weighted)))))

    # No perfect matching: vertex 0 joined by one edge to each of three triangles; {0} is a Tutte
    # set (removing it leaves three odd components).
    hub = [(0, 1), (0, 4), (0, 7)] + [(t + i, t + (i + 1) % 3) for t in (1, 4, 7) for i in range(3)]
    write("no_matching_10.edgelist", "# undirected 10\n# vertex 0 joined to three triangles: no "
          "perfect matching\n" + "".join(f"{u} {v}\n" for u, v in hub))
    manifest.append(("no_matching_10.edgelist", "generated", "CC0",
                     "a graph without a perfect matching (brute force over pairings)",
                     str(pairings(10, edge_weights(hub)))))

    # C60, buckminsterfullerene: the truncated icosahedron, vertices the even permutations of
    # (0, ±1, ±3φ), (±1, ±(2+φ), ±2φ), (±φ, ±2, ±φ³), edges the pairs at distance 2, numbered in
    # breadth-first order from the first vertex (a narrow band for the pairings below). Its
    # Kekulé structures (perfect matchings): 12500.
    c60 = truncated_icosahedron()
    write("c60.edgelist", "# undirected 60\n# C60 (buckminsterfullerene): the truncated "
          "icosahedron, 60 vertices, 90 edges\n" + "".join(f"{u} {v}\n" for u, v in c60))
    manifest.append(("c60.edgelist", "generated", "CC0",
                     "perfect matchings (Kekulé structures) of C60 (brute force over pairings)",
                     str(pairings(60, edge_weights(c60)))))

    header = "# file\tsource\tlicence\twhat\texpected\n"
    (OUT / "MANIFEST.tsv").write_text(header + "".join("\t".join(row) + "\n" for row in manifest))


if __name__ == "__main__":
    main()
