#include "report/inferred_dissector.h"

#include <algorithm>
#include <cctype>
#include <iomanip>
#include <sstream>

#include "report/wording.h"

namespace rudp::report {

namespace {

std::string portOf(const std::string& endpoint) { return endpoint.substr(endpoint.rfind(':') + 1); }

bool sameField(const ana::InferredField& a, const ana::InferredField& b) {
  return a.offset == b.offset && a.size == b.size && (a.size == 1 || a.little_endian == b.little_endian);
}

// One field of the dissector: its Lua variable, filter name, title and layout.
struct Field {
  std::string var, abbr, title;
  ana::InferredField field;
};
// A direction's fields, by offset (they never overlap: field_inference.h).
using Layout = std::vector<Field>;

// `who` is "" for fields both directions share, else "c2s" or "s2c".
Layout layoutOf(const ana::DirectionMetrics& m, const std::string& proto, const std::string& who) {
  const std::string prefix = who.empty() ? "" : who + "_";
  const std::string owner = who.empty() ? "" : who == "c2s" ? "Client " : "Server ";
  Layout out;
  auto add = [&](const ana::InferredField& f, const char* name, const char* title) {
    if (!f.found()) return;
    std::string t = owner.empty() ? title : owner + title;
    if (!owner.empty()) t[owner.size()] = static_cast<char>(std::tolower(t[owner.size()]));
    out.push_back({"f_" + prefix + name, proto + "." + prefix + name, t, f});
  };
  add(m.seq_field, "seq", "Sequence counter (inferred)");
  add(m.ack_field, "ack", "Echo of the peer's counter (inferred)");
  add(m.ts_field, "ts", "Sender clock (inferred)");
  std::sort(out.begin(), out.end(),
            [](const Field& x, const Field& y) { return x.field.offset < y.field.offset; });
  return out;
}

bool sameLayout(const Layout& a, const Layout& b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](const Field& x, const Field& y) {
           return x.var == y.var && sameField(x.field, y.field);
         });
}

// One layout for both directions when they agree, else one per direction.
std::vector<Layout> layoutsOf(const ConnectionRecord& r, const std::string& proto) {
  Layout c2s = layoutOf(r.metrics.dir[0], proto, ""), s2c = layoutOf(r.metrics.dir[1], proto, "");
  if (sameLayout(c2s, s2c)) return {c2s};
  return {layoutOf(r.metrics.dir[0], proto, "c2s"), layoutOf(r.metrics.dir[1], proto, "s2c")};
}

int endOf(const Layout& l) { return l.empty() ? 0 : l.back().field.offset + l.back().field.size; }

// The statements adding a layout's fields and the bytes around them to `t`.
void writeFieldAdds(std::ostream& out, const Layout& l, const std::string& indent) {
  int at = 0;
  for (const Field& x : l) {
    const ana::InferredField& f = x.field;
    if (f.offset > at) out << indent << "t:add(f_bytes, tvb(" << at << ", " << f.offset - at << "))\n";
    out << indent << (f.little_endian && f.size > 1 ? "t:add_le(" : "t:add(") << x.var << ", tvb("
        << int(f.offset) << ", " << int(f.size) << "))\n";
    at = f.offset + f.size;
  }
  out << indent << "if tvb:len() > " << at << " then t:add(f_bytes, tvb(" << at << ")) end\n";
}

void writeDissectorFunction(std::ostream& out, const std::vector<Layout>& layouts, const std::string& port,
                            const std::string& proto) {
  out << "function p.dissector(tvb, pinfo, tree)\n"
      << "  pinfo.cols.protocol = \"" << proto << "\"\n"
      << "  local t = tree:add(p, tvb())\n";
  if (layouts.size() == 1) {
    out << "  if tvb:len() < " << endOf(layouts[0]) << " then t:add(f_bytes, tvb()) return tvb:len() end\n";
    writeFieldAdds(out, layouts[0], "  ");
  } else {
    out << "  local to_server = pinfo.dst_port == " << port << "\n";
    for (size_t i = 0; i < layouts.size(); ++i) {
      out << (i == 0 ? "  if to_server and " : "  elseif not to_server and ")
          << "tvb:len() >= " << endOf(layouts[i]) << " then\n";
      writeFieldAdds(out, layouts[i], "    ");
    }
    out << "  else\n    t:add(f_bytes, tvb())\n  end\n";
  }
  out << "  return tvb:len()\nend\n";
}

void writeContract(std::ostream& out, const std::vector<Layout>& layouts, const std::string& proto) {
  out << "--[==[ rudpscope.contract\n"
      << "return {\n  version = 1,\n  proto = \"" << proto << "\",\n  unreliable_seq = {";
  bool first = true;
  for (const Layout& l : layouts)
    for (const Field& x : l)
      if (x.var.ends_with("seq")) {
        out << (first ? " " : ", ") << "{ field = \"" << x.abbr << "\", bits = " << 8 * x.field.size << " }";
        first = false;
      }
  out << " },\n";
  // The contract names one clock: a shared one, or the only direction's.
  std::vector<const Field*> clocks;
  for (const Layout& l : layouts)
    for (const Field& x : l)
      if (x.var.ends_with("ts")) clocks.push_back(&x);
  if (clocks.size() == 1) {
    const ana::InferredField& f = clocks[0]->field;
    out << "  ts = { field = \"" << clocks[0]->abbr << "\", unit_ms = " << std::setprecision(17)
        << 1e3 / f.unit_hz << ", bits = " << 8 * f.size << " },\n";
  }
  out << "}\n]==]\n";
}

}  // namespace

bool hasInferredCounter(const ConnectionRecord& r) {
  return r.has_analysis && r.metrics.timing_only &&
         (r.metrics.dir[0].seq_field.found() || r.metrics.dir[1].seq_field.found());
}

std::string inferredProtocolName(const ConnectionSummary& conn) { return "inferred_" + portOf(conn.server); }

std::string inferredDissector(const ConnectionRecord& r, const std::string& source) {
  const std::string proto = inferredProtocolName(r.summary), port = portOf(r.summary.server);
  const std::vector<Layout> layouts = layoutsOf(r, proto);
  std::ostringstream out;
  out << "-- " << proto << ": written by rudpscope-cli dissector infer from " << source << ",\n"
      << "-- flow " << r.summary.client << " -> " << r.summary.server << " (conn " << r.summary.id << ").\n";
  for (int d = 0; d < 2; ++d) {
    const ana::DirectionMetrics& m = r.metrics.dir[d];
    const char* dir = d == 0 ? "client->server" : "server->client";
    for (const auto& [kind, f] :
         {std::pair{"counter", &m.seq_field}, std::pair{"echo of the peer's counter", &m.ack_field},
          std::pair{"sender clock", &m.ts_field}})
      if (f->found()) out << "-- " << dir << " " << kind << ": " << inferredFieldText(*f) << ".\n";
  }
  out << "-- The names are placeholders: rename the protocol and its fields, and add the ones\n"
      << "-- you know (message types, lengths). Loads unchanged in Wireshark.\n\n"
      << "local p = Proto(\"" << proto << "\", \"Inferred protocol on UDP port " << port << "\")\n";
  std::vector<std::string> vars;
  for (const Layout& l : layouts)
    for (const Field& x : l) {
      out << "local " << x.var << " = ProtoField.uint" << 8 * x.field.size << "(\"" << x.abbr << "\", \""
          << x.title << "\", base.DEC)\n";
      vars.push_back(x.var);
    }
  out << "local f_bytes = ProtoField.bytes(\"" << proto << ".bytes\", \"Other bytes\")\n"
      << "p.fields = { ";
  for (const std::string& v : vars) out << v << ", ";
  out << "f_bytes }\n\n";
  writeDissectorFunction(out, layouts, port, proto);
  out << "\nDissectorTable.get(\"udp.port\"):add(" << port << ", p)\n\n";
  writeContract(out, layouts, proto);
  return out.str();
}

}  // namespace rudp::report
