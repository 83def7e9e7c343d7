import { describe, expect, it } from "vitest";
import { ipLimitSubject } from "./rate-limit.server";

describe("ipLimitSubject", () => {
  it("counts an IPv4 address as it is", () => {
    expect(ipLimitSubject("203.0.113.9")).toBe("203.0.113.9");
  });

  it.each([
    ["2001:db8:85a3:8d3:1319:8a2e:370:7348", "2001:db8:85a3:8d3::/64"],
    ["2001:0DB8:85A3:08D3:0000:0000:0000:0001", "2001:db8:85a3:8d3::/64"],
    ["2001:db8::1", "2001:db8:0:0::/64"],
    ["2001:db8:1:2::ffff", "2001:db8:1:2::/64"],
    ["::1", "0:0:0:0::/64"],
    ["fe80::", "fe80:0:0:0::/64"],
  ])("counts IPv6 %s by its /64, %s", (ip, subject) => {
    expect(ipLimitSubject(ip)).toBe(subject);
  });

  it("puts two addresses of one /64 together and keeps other networks apart", () => {
    expect(ipLimitSubject("2001:db8:1:2:aaaa::1")).toBe(ipLimitSubject("2001:db8:1:2:bbbb:cccc:dddd:eeee"));
    expect(ipLimitSubject("2001:db8:1:2::1")).not.toBe(ipLimitSubject("2001:db8:1:3::1"));
  });

  it("leaves anything that is not an address, or embeds IPv4, as it is", () => {
    expect(ipLimitSubject("unknown")).toBe("unknown");
    expect(ipLimitSubject("64:ff9b::192.0.2.1")).toBe("64:ff9b::192.0.2.1");
  });
});
