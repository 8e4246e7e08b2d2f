#pragma once

#include <map>
#include <string>

namespace ptowb {

class Project;

// What trusting a project covers: every file of it that runs or chooses what runs — op.json,
// the kernel and the reference files it names, every Python file the kernel could import from
// the project, and the project's runners.json and deploy.json — by relative path and sha256.
// The workbench's own folders (.ptowb, packages) and hidden folders are not part of it.
using ProjectFingerprint = std::map<std::string, std::string>;
ProjectFingerprint projectFingerprint(const Project& project);

// "kernel.py and helpers/norm.py changed; util.py is new": what differs from the trusted
// fingerprint, in a sentence; "" when nothing does.
std::string fingerprintChanges(const ProjectFingerprint& trusted, const ProjectFingerprint& now);

} // namespace ptowb
