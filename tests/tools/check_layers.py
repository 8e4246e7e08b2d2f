#!/usr/bin/env python3
"""Holds the sources to the layers their CMakeLists declare, and draws the layers.

The configure step writes the declarations to BUILD/layers.json (cmake/PtowbLayers.cmake): the
layers, what each links and which modules it opens at run time; the folders of core/ and what
each names; the targets outside core/ (models/, widgets/, app/) and what each names.

Each folder of core/ is a target (cmake/PtowbCoreFolder.cmake) that names the folders it
includes. For every folder this check preprocesses, with the include flags the build really
compiles that folder with (BUILD/compile_commands.json) and from inside the folder (as its sources
are), a probe asking __has_include of one header of every folder. A folder must see exactly
itself, the folders it names, and what their headers need (the PUBLIC folders of those,
transitively). Its files include only folders it names (what a named folder's headers bring along
compiles, but is not named); its headers only folders it names PUBLIC; it names no folder it does
not include, and only folders of its own layer or of a layer its layer uses, directly or not; and
no include anywhere may hold a "." or ".." step, which would leave the folder it names (an include
root is a link to the folder itself).

A target outside core/ sees every header of core/ (a static layer exports them all), so only its
includes are held to what it names: a folder of core/ ("spec/op_spec.h") or the folder of another
target ("code_editor.h" is widgets/), each of a layer the target links, directly or not; and it
names nothing it does not include. A folder's headers answer to what any target of the folder names.

A module layer is linked by nothing: the folder that opens it (dlopen) declares it (LOADS), and
must name the module's file in its sources; a dlopen anywhere else, or a module nobody declares
opening, fails.

  check_layers.py SOURCE_DIR BUILD_DIR CXX
"""
import json
import os
import re
import shlex
import subprocess
import sys


def include_flags(command):
    """The include arguments of one compile command, as a flat list: -I joined or apart,
    -isystem and -iquote apart, as CMake writes them."""
    args = shlex.split(command)
    flags = []
    i = 0
    while i < len(args):
        a = args[i]
        for prefix in ("-I", "-isystem", "-iquote"):
            if a == prefix and i + 1 < len(args):
                flags += [prefix, args[i + 1]]
                i += 1
                break
            if a.startswith(prefix) and len(a) > len(prefix) and prefix == "-I":
                flags.append(a)
                break
        i += 1
    return flags


def output_of(command):
    """The object file a compile command writes (CMake before 3.20 gives no "output" key)."""
    if "output" in command:
        return command["output"]
    args = command.get("arguments") or shlex.split(command["command"])
    return args[args.index("-o") + 1] if "-o" in args else ""


def visible_folders(cxx, folder_dir, flags, probes):
    probe = "".join(
        f'#if __has_include("{header}")\nPTOWB_SEES {name}\n#endif\n' for name, header in sorted(probes.items())
    )
    done = subprocess.run(
        [cxx, "-E", "-P", "-x", "c++", "-std=c++20", *flags, "-"],
        input=probe,
        cwd=folder_dir,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise RuntimeError(f"the probe did not preprocess in {folder_dir}:\n{done.stderr}")
    return set(re.findall(r"^PTOWB_SEES (\w+)$", done.stdout, re.M))


INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^">]*)[">]', re.M)
# Generated code is written as raw strings (codegen's templates); its includes are text.
RAW_STRING = re.compile(r'R"([^()\\\s]{0,16})\((.*?)\)\1"', re.S)
DLOPEN = re.compile(r"^(?!\s*//).*\bdlopen\s*\(", re.M)


def read(path):
    return open(path, encoding="utf-8", errors="replace").read()


def includes_of(path):
    """(line, included path) of every #include of a file, raw strings left out."""
    text = RAW_STRING.sub(lambda m: "\n" * m.group(0).count("\n"), read(path))
    return [(text.count("\n", 0, m.start()) + 1, m.group(2)) for m in INCLUDE.finditer(text)]


def source_files(folder):
    for root, _, files in os.walk(folder):
        for f in sorted(files):
            if f.endswith((".h", ".cpp")):
                yield os.path.join(root, f)


def closure(starts, neighbours):
    """`starts` and everything `neighbours` leads to from them."""
    seen = set()
    stack = list(starts)
    while stack:
        current = stack.pop()
        if current not in seen:
            seen.add(current)
            stack += neighbours(current)
    return seen


def reachable(layers, start):
    """The layers `start` links, directly or not, itself included."""
    return closure([start], lambda layer: layers[layer]["uses"])


def leaves_folder(where, line, included, failures):
    steps = included.split("/")
    if ".." in steps or "." in steps:
        failures.append(
            f"{where}:{line}: an include that leaves the folder it names; " 'name the folder instead ("spec/op_spec.h")'
        )
    return steps


def check_core(source_dir, build_dir, cxx, declared, failures):
    """Each folder of core/ sees and includes what it names, of layers its layer uses."""
    core = os.path.join(source_dir, "core")
    layers = declared["layers"]
    folders = declared["folders"]
    commands = json.load(open(os.path.join(build_dir, "compile_commands.json")))

    # One header of each folder to ask for.
    probes = {}
    for name in folders:
        headers = sorted(f for f in os.listdir(os.path.join(core, name)) if f.endswith(".h"))
        if headers:
            probes[name] = f"{name}/{headers[0]}"
    if len(probes) < 2:
        failures.append(f"only {len(probes)} folders have headers: nothing to check")

    for name, entry in sorted(folders.items()):
        named = entry["public"] + entry["private"]
        for dep in named:
            if dep not in folders:
                failures.append(f"core/{name} names {dep}, which is not a folder of core/")
            elif folders[dep]["layer"] not in reachable(layers, entry["layer"]):
                failures.append(
                    f'core/{name} ({entry["layer"]}) names {dep}, of the layer '
                    f'{folders[dep]["layer"]}, which {entry["layer"]} does not use'
                )
        marker = f"core_{name}.dir/"
        flag_sets = {
            tuple(include_flags(c.get("command") or shlex.join(c["arguments"])))
            for c in commands
            if marker in output_of(c)
        }
        if not flag_sets:
            failures.append(f"core/{name}: no compile command in compile_commands.json")
            continue
        expected = {name} | closure(named, lambda n: folders[n]["public"])
        expected &= set(probes)
        for flags in flag_sets:
            seen = visible_folders(cxx, os.path.join(core, name), list(flags), probes)
            if seen != expected:
                extra = sorted(seen - expected)
                missing = sorted(expected - seen)
                failures.append(
                    f'core/{name} sees {", ".join(extra) or "nothing more"} beyond '
                    f"what it names" + (f', and misses {", ".join(missing)}' if missing else "")
                )

    included = {name: set() for name in folders}  # the folders each folder's files include
    for path in source_files(core):
        where = os.path.relpath(path, source_dir)
        folder = os.path.relpath(path, core).split(os.sep)[0]
        for line, target in includes_of(path):
            steps = leaves_folder(where, line, target, failures)
            if len(steps) != 2 or steps[0] not in folders or folder not in folders:
                continue
            other = steps[0]
            if other == folder:
                continue
            included[folder].add(other)
            entry = folders[folder]
            if other not in entry["public"] + entry["private"]:
                # It may compile, through a named folder's headers; it is still not named.
                failures.append(f"{where}:{line}: includes {other}/, which core/{folder} " "does not name")
            elif path.endswith(".h") and other not in entry["public"]:
                # A header's includes of other folders reach everyone who includes it.
                failures.append(
                    f"{where}:{line}: a header includes {other}/, which " f"core/{folder} names PRIVATE; name it PUBLIC"
                )

    for name, entry in sorted(folders.items()):
        for dep in entry["public"] + entry["private"]:
            if dep not in included[name]:
                failures.append(f"core/{name} names {dep} but includes nothing of it")


def check_targets(source_dir, declared, failures):
    """Each target outside core/ includes only folders it names, of layers it links."""
    layers = declared["layers"]
    folders = declared["folders"]
    targets = declared["targets"]
    outer_folders = {entry["folder"] for entry in targets.values()}
    # A header included by its name alone is of the folder that holds it (the including file's
    # own first), as the include directories of the targets find it.
    header_folders = {}
    for folder in sorted(outer_folders):
        for f in os.listdir(os.path.join(source_dir, folder)):
            if f.endswith(".h"):
                header_folders.setdefault(f, []).append(folder)

    def layer_of_name(name):
        if name in folders:
            return [folders[name]["layer"]]
        return [t for t, entry in targets.items() if entry["folder"] == name]

    def included_folders(path, own):
        """(line, folder) of each include of `path` that leaves its own folder."""
        found = []
        for line, target in includes_of(os.path.join(source_dir, path)):
            steps = leaves_folder(path, line, target, failures)
            if len(steps) == 2 and steps[0] in folders:
                found.append((line, steps[0]))
            elif len(steps) == 1 and not os.path.exists(os.path.join(source_dir, own, target)):
                holders = header_folders.get(target, [])
                if len(holders) > 1:
                    failures.append(f'{path}:{line}: {target} is in {", ".join(holders)}; ' "rename one")
                elif holders:
                    found.append((line, holders[0]))
        return found

    # A folder's headers answer to what any target of the folder names.
    names_of_folder = {}
    for entry in targets.values():
        names_of_folder.setdefault(entry["folder"], set()).update(entry["names"])
    included_by_headers = {}
    for folder in sorted(outer_folders):
        included_by_headers[folder] = set()
        for f in sorted(os.listdir(os.path.join(source_dir, folder))):
            if not f.endswith(".h"):
                continue
            path = os.path.join(folder, f)
            for line, other in included_folders(path, folder):
                included_by_headers[folder].add(other)
                if other not in names_of_folder[folder]:
                    failures.append(f"{path}:{line}: includes {other}/, which no target of " f"{folder}/ names")

    for target, entry in sorted(targets.items()):
        own = entry["folder"]
        linked = reachable_target(layers, targets, target) - {target}
        for name in entry["names"]:
            owners = layer_of_name(name)
            if name == own or not owners:
                failures.append(
                    f"{target} names {name}, which is neither a folder of core/ nor " "the folder of another target"
                )
            elif not linked & set(owners):
                failures.append(f'{target} names {name}, of {", ".join(owners)}, which ' f"{target} does not link")
        included = set(included_by_headers[own])
        for source in entry["sources"]:
            path = os.path.join(own, source)
            for line, other in included_folders(path, own):
                included.add(other)
                if other not in entry["names"]:
                    failures.append(f"{path}:{line}: includes {other}/, which {target} does " "not name")
        for name in entry["names"]:
            if name not in included:
                failures.append(f"{target} names {name} but includes nothing of it")


def reachable_target(layers, targets, start):
    """The layers and targets a target outside core/ links, directly or not, itself included."""
    return closure([start], lambda t: (layers[t] if t in layers else targets[t])["uses"])


def check_loads(source_dir, declared, failures):
    """Every module is opened by a folder that declares it, and nothing else opens one."""
    layers = declared["layers"]
    folders = declared["folders"]
    loaded = set()
    for name, entry in sorted(folders.items()):
        sources = "".join(read(p) for p in source_files(os.path.join(source_dir, "core", name)))
        for module in entry["loads"]:
            loaded.add(module)
            if not layers.get(module, {}).get("module"):
                failures.append(f"core/{name} loads {module}, which is no MODULE layer")
            elif not DLOPEN.search(sources) or f"lib{module}.so" not in sources:
                failures.append(f"core/{name} loads {module}, but none of its sources opens " f"lib{module}.so")
    for module, entry in sorted(layers.items()):
        if entry["module"] and module not in loaded:
            failures.append(f"{module} is a module no folder declares it opens (LOADS)")
    for top in ("core", "models", "widgets", "app"):
        for path in source_files(os.path.join(source_dir, top)):
            where = os.path.relpath(path, source_dir)
            parts = where.split(os.sep)
            declares = top == "core" and folders.get(parts[1], {}).get("loads")
            if DLOPEN.search(read(path)) and not declares:
                failures.append(
                    f"{where} opens a module at run time: declare it in its folder's "
                    "LOADS, where the layers test shows it"
                )


def layer_graph(declared):
    """The layers as lines "a -> b, c" (links) and "a ~> m (core/f)" (opens at run time)."""
    lines = []
    for layer, entry in declared["layers"].items():
        kind = " (module)" if entry["module"] else ""
        lines.append(f'{layer}{kind} -> {", ".join(entry["uses"]) or "nothing of ptowb"}')
    for name, entry in declared["folders"].items():
        for module in entry["loads"]:
            lines.append(f'{entry["layer"]} ~> {module} (opened at run time by core/{name})')
    for target, entry in declared["targets"].items():
        lines.append(f'{target} [{entry["folder"]}] -> {", ".join(entry["uses"])}')
    return lines


def main():
    source_dir, build_dir, cxx = sys.argv[1:4]
    declared = json.load(open(os.path.join(build_dir, "layers.json")))
    failures = []
    check_core(source_dir, build_dir, cxx, declared, failures)
    check_targets(source_dir, declared, failures)
    check_loads(source_dir, declared, failures)
    print("layers (-> links, ~> opens at run time):")
    for line in layer_graph(declared):
        print(f"  {line}")
    for f in failures:
        print(f)
    print(
        f'{len(declared["folders"])} folders of core/ in {len(declared["layers"])} layers, '
        f'{len(declared["targets"])} targets outside core/, {len(failures)} problems'
    )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
