#!/usr/bin/env python3
"""Holds the compiler's view of core/ to what its CMakeLists declare.

Each folder of core/ is a target (cmake/PtowbCoreFolder.cmake) that names the folders it
includes; the configure step writes those declarations to BUILD/core_folders.json. For every
folder this check preprocesses, with the include flags the build really compiles that folder
with (BUILD/compile_commands.json) and from inside the folder (as its sources are), a probe
asking __has_include of one header of every folder. A folder must see exactly itself, the folders
it names, and what their headers need (the PUBLIC folders of those, transitively). Its files
include only folders it names (what a named folder's headers bring along compiles, but is not
named); its headers only folders it names PUBLIC; it names no folder it does not include, and
only folders of its own layer or of a layer its layer uses, directly or not; and no include
in core/ may hold a "." or ".." step, which would leave the folder it names (an include root is a
link to the folder itself).

  check_core_folders.py SOURCE_DIR BUILD_DIR CXX
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
        for prefix in ('-I', '-isystem', '-iquote'):
            if a == prefix and i + 1 < len(args):
                flags += [prefix, args[i + 1]]
                i += 1
                break
            if a.startswith(prefix) and len(a) > len(prefix) and prefix == '-I':
                flags.append(a)
                break
        i += 1
    return flags


def output_of(command):
    """The object file a compile command writes (CMake before 3.20 gives no "output" key)."""
    if 'output' in command:
        return command['output']
    args = command.get('arguments') or shlex.split(command['command'])
    return args[args.index('-o') + 1] if '-o' in args else ''


def visible_folders(cxx, folder_dir, flags, probes):
    probe = ''.join(f'#if __has_include("{header}")\nPTOWB_SEES {name}\n#endif\n'
                    for name, header in sorted(probes.items()))
    done = subprocess.run([cxx, '-E', '-P', '-x', 'c++', '-std=c++20', *flags, '-'],
                          input=probe, cwd=folder_dir, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f'the probe did not preprocess in {folder_dir}:\n{done.stderr}')
    return set(re.findall(r'^PTOWB_SEES (\w+)$', done.stdout, re.M))


def main():
    source_dir, build_dir, cxx = sys.argv[1:4]
    core = os.path.join(source_dir, 'core')
    declared = json.load(open(os.path.join(build_dir, 'core_folders.json')))
    layers = declared['layers']
    folders = declared['folders']

    def reachable_layers(layer):
        seen = {layer}
        stack = [layer]
        while stack:
            for used in layers[stack.pop()]['uses']:
                if used not in seen:
                    seen.add(used)
                    stack.append(used)
        return seen

    commands = json.load(open(os.path.join(build_dir, 'compile_commands.json')))
    failures = []

    # One header of each folder to ask for.
    probes = {}
    for name in folders:
        headers = sorted(f for f in os.listdir(os.path.join(core, name)) if f.endswith('.h'))
        if headers:
            probes[name] = f'{name}/{headers[0]}'
    if len(probes) < 2:
        failures.append(f'only {len(probes)} folders have headers: nothing to check')

    def closure(names):
        seen = set()
        stack = list(names)
        while stack:
            n = stack.pop()
            if n in seen:
                continue
            seen.add(n)
            stack += folders[n]['public']
        return seen

    for name, entry in sorted(folders.items()):
        named = entry['public'] + entry['private']
        for dep in named:
            if dep not in folders:
                failures.append(f'core/{name} names {dep}, which is not a folder of core/')
            elif folders[dep]['layer'] not in reachable_layers(entry['layer']):
                failures.append(f'core/{name} ({entry["layer"]}) names {dep}, of the layer '
                                f'{folders[dep]["layer"]}, which {entry["layer"]} does not use')
        marker = f'core_{name}.dir/'
        flag_sets = {tuple(include_flags(c.get('command') or shlex.join(c['arguments'])))
                     for c in commands if marker in output_of(c)}
        if not flag_sets:
            failures.append(f'core/{name}: no compile command in compile_commands.json')
            continue
        expected = {name} | closure(named)
        expected &= set(probes)
        for flags in flag_sets:
            seen = visible_folders(cxx, os.path.join(core, name), list(flags), probes)
            if seen != expected:
                extra = sorted(seen - expected)
                missing = sorted(expected - seen)
                failures.append(f'core/{name} sees {", ".join(extra) or "nothing more"} beyond '
                                f'what it names' + (f', and misses {", ".join(missing)}' if missing else ''))

    include = re.compile(r'^\s*#\s*include\s*([<"])([^">]*)[">]', re.M)
    # Generated code is written as raw strings (codegen's templates); its includes are text.
    raw_string = re.compile(r'R"([^()\\\s]{0,16})\((.*?)\)\1"', re.S)
    included = {name: set() for name in folders}  # the folders each folder's files include
    for root, _, files in os.walk(core):
        for f in files:
            if not f.endswith(('.h', '.cpp')):
                continue
            path = os.path.join(root, f)
            where = os.path.relpath(path, source_dir)
            folder = os.path.relpath(path, core).split(os.sep)[0]
            text = open(path, encoding='utf-8', errors='replace').read()
            text = raw_string.sub(lambda m: '\n' * m.group(0).count('\n'), text)
            for m in include.finditer(text):
                line = text.count('\n', 0, m.start()) + 1
                steps = m.group(2).split('/')
                if '..' in steps or '.' in steps:
                    failures.append(f'{where}:{line}: an include that leaves the folder it names; '
                                    'name the folder instead ("spec/op_spec.h")')
                if len(steps) != 2 or steps[0] not in folders or folder not in folders:
                    continue
                other = steps[0]
                if other == folder:
                    continue
                included[folder].add(other)
                entry = folders[folder]
                if other not in entry['public'] + entry['private']:
                    # It may compile, through a named folder's headers; it is still not named.
                    failures.append(f'{where}:{line}: includes {other}/, which core/{folder} '
                                    'does not name')
                elif f.endswith('.h') and other not in entry['public']:
                    # A header's includes of other folders reach everyone who includes it.
                    failures.append(f'{where}:{line}: a header includes {other}/, which '
                                    f'core/{folder} names PRIVATE; name it PUBLIC')

    for name, entry in sorted(folders.items()):
        for dep in entry['public'] + entry['private']:
            if dep not in included[name]:
                failures.append(f'core/{name} names {dep} but includes nothing of it')

    for f in failures:
        print(f)
    print(f'{len(folders)} folders in {len(layers)} layers, {len(failures)} problems')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
