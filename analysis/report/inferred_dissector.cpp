#include "report/inferred_dissector.h"

#include <sstream>

#include "report/wording.h"

namespace rudp::report {

namespace {

std::string portOf(const std::string& endpoint) { return endpoint.substr(endpoint.rfind(':') + 1); }

bool sameField(const ana::InferredField& a, const ana::InferredField& b) {
  return a.offset == b.offset && a.size == b.size && (a.size == 1 || a.little_endian == b.little_endian);
}

// One counter field of the dissector: its Lua variable, filter name and layout.
struct Counter {
  std::string var, abbr, title;
  ana::InferredField field;
};

std::vector<Counter> countersOf(const ConnectionRecord& r, const std::string& proto) {
  const ana::InferredField& c2s = r.metrics.dir[0].seq_field;
  const ana::InferredField& s2c = r.metrics.dir[1].seq_field;
  if (c2s.found() && s2c.found() && sameField(c2s, s2c))
    return {{"f_seq", proto + ".seq", "Sequence counter (inferred)", c2s}};
  std::vector<Counter> out;
  if (c2s.found())
    out.push_back({"f_c2s_seq", proto + ".c2s_seq", "Client sequence counter (inferred)", c2s});
  if (s2c.found())
    out.push_back({"f_s2c_seq", proto + ".s2c_seq", "Server sequence counter (inferred)", s2c});
  return out;
}

// The statements adding one counter and the bytes around it to `t`.
void writeFieldAdds(std::ostream& out, const Counter& c, const std::string& indent) {
  const ana::InferredField& f = c.field;
  const int end = f.offset + f.size;
  if (f.offset > 0) out << indent << "t:add(f_head, tvb(0, " << int(f.offset) << "))\n";
  out << indent << (f.little_endian && f.size > 1 ? "t:add_le(" : "t:add(") << c.var << ", tvb("
      << int(f.offset) << ", " << int(f.size) << "))\n";
  out << indent << "if tvb:len() > " << end << " then t:add(f_rest, tvb(" << end << ")) end\n";
}

void writeDissectorFunction(std::ostream& out, const std::vector<Counter>& counters, const std::string& port,
                            const std::string& proto) {
  out << "function p.dissector(tvb, pinfo, tree)\n"
      << "  pinfo.cols.protocol = \"" << proto << "\"\n"
      << "  local t = tree:add(p, tvb())\n";
  if (counters.size() == 1) {
    const int end = counters[0].field.offset + counters[0].field.size;
    out << "  if tvb:len() < " << end << " then t:add(f_rest, tvb()) return tvb:len() end\n";
    writeFieldAdds(out, counters[0], "  ");
  } else {
    out << "  local to_server = pinfo.dst_port == " << port << "\n";
    for (size_t i = 0; i < counters.size(); ++i) {
      const int end = counters[i].field.offset + counters[i].field.size;
      out << (i == 0 ? "  if to_server and " : "  elseif not to_server and ") << "tvb:len() >= " << end
          << " then\n";
      writeFieldAdds(out, counters[i], "    ");
    }
    out << "  else\n    t:add(f_rest, tvb())\n  end\n";
  }
  out << "  return tvb:len()\nend\n";
}

void writeContract(std::ostream& out, const std::vector<Counter>& counters, const std::string& proto) {
  out << "--[==[ rudpscope.contract\n"
      << "return {\n  version = 1,\n  proto = \"" << proto << "\",\n  unreliable_seq = {";
  for (size_t i = 0; i < counters.size(); ++i)
    out << (i ? ", " : " ") << "{ field = \"" << counters[i].abbr
        << "\", bits = " << 8 * counters[i].field.size << " }";
  out << " },\n}\n]==]\n";
}

}  // namespace

bool hasInferredCounter(const ConnectionRecord& r) {
  return r.has_analysis && r.metrics.timing_only &&
         (r.metrics.dir[0].seq_field.found() || r.metrics.dir[1].seq_field.found());
}

std::string inferredProtocolName(const ConnectionSummary& conn) { return "inferred_" + portOf(conn.server); }

std::string inferredDissector(const ConnectionRecord& r, const std::string& source) {
  const std::string proto = inferredProtocolName(r.summary), port = portOf(r.summary.server);
  const std::vector<Counter> counters = countersOf(r, proto);
  std::ostringstream out;
  out << "-- " << proto << ": written by rudpscope-cli dissector infer from " << source << ",\n"
      << "-- flow " << r.summary.client << " -> " << r.summary.server << " (conn " << r.summary.id << ").\n";
  for (int d = 0; d < 2; ++d)
    if (r.metrics.dir[d].seq_field.found())
      out << "-- " << (d == 0 ? "client->server" : "server->client")
          << " counter: " << inferredFieldText(r.metrics.dir[d].seq_field) << ".\n";
  out << "-- The names are placeholders: rename the protocol and its fields, and add the ones\n"
      << "-- you know (acks, timestamps, message types). Loads unchanged in Wireshark.\n\n"
      << "local p = Proto(\"" << proto << "\", \"Inferred protocol on UDP port " << port << "\")\n"
      << "local f_head = ProtoField.bytes(\"" << proto << ".head\", \"Bytes before the counter\")\n";
  for (const Counter& c : counters)
    out << "local " << c.var << " = ProtoField.uint" << 8 * c.field.size << "(\"" << c.abbr << "\", \""
        << c.title << "\", base.DEC)\n";
  out << "local f_rest = ProtoField.bytes(\"" << proto << ".rest\", \"Other bytes\")\n"
      << "p.fields = { f_head";
  for (const Counter& c : counters) out << ", " << c.var;
  out << ", f_rest }\n\n";
  writeDissectorFunction(out, counters, port, proto);
  out << "\nDissectorTable.get(\"udp.port\"):add(" << port << ", p)\n\n";
  writeContract(out, counters, proto);
  return out.str();
}

}  // namespace rudp::report
