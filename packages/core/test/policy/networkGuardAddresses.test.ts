import { describe, expect, it } from "vitest";
import {
  checkUrl,
  classifyAddress,
  formatIpv4,
  formatIpv6,
  normaliseHostname,
  parseIpv4Loose,
  parseIpv6,
  preflightUrl,
} from "../../src/policy/networkGuard/index.js";
import { pinnedLookup } from "../../src/policy/networkGuard/pinnedLookup.js";

describe("parseIpv4Loose", () => {
  it.each([
    ["127.0.0.1", "127.0.0.1"],
    ["2130706433", "127.0.0.1"],
    ["0177.0.0.1", "127.0.0.1"],
    ["0x7f.0.0.1", "127.0.0.1"],
    ["0X7F.0.0.1", "127.0.0.1"],
    ["127.1", "127.0.0.1"],
    ["127.0.1", "127.0.0.1"],
    ["0x7f.1", "127.0.0.1"],
    ["0177.0x0.1", "127.0.0.1"],
    ["017700000001", "127.0.0.1"],
    ["0x7f000001", "127.0.0.1"],
    ["10.1.65535", "10.1.255.255"],
    ["127.0.0.1.", "127.0.0.1"],
    ["0", "0.0.0.0"],
    ["0x", "0.0.0.0"],
    ["4294967295", "255.255.255.255"],
  ])("reads %s as %s", (text, expected) => {
    const parsed = parseIpv4Loose(text);
    expect(parsed === undefined ? undefined : formatIpv4(parsed)).toBe(expected);
  });

  it.each([
    "example.com",
    "1.2.3.4.5",
    "256.0.0.1",
    "1.256.0.1",
    "4294967296",
    "127.0.0.1..",
    "08.0.0.1",
    "0x7g.0.0.1",
    "1..1",
    "",
    "127.0.0.1a",
  ])("does not read %s as an address", (text) => {
    expect(parseIpv4Loose(text)).toBeUndefined();
  });
});

describe("parseIpv6 / formatIpv6", () => {
  it.each([
    ["::1", "::1"],
    ["[::1]", "::1"],
    ["0:0:0:0:0:0:0:1", "::1"],
    ["::", "::"],
    ["::ffff:127.0.0.1", "::ffff:7f00:1"],
    ["FE80::1%eth0", "fe80::1"],
    ["2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1"],
    ["2001:0db8:0000:0000:0000:0000:0000:0001", "2001:db8::1"],
    ["1:2:3:4:5:6:7::", "1:2:3:4:5:6:7:0"],
  ])("reads %s as %s", (text, expected) => {
    const parsed = parseIpv6(text);
    expect(parsed === undefined ? undefined : formatIpv6(parsed)).toBe(expected);
  });

  it.each([
    "1:2:3:4:5:6:7:8:9",
    "1::2::3",
    "12345::1",
    "::ffff:0177.0.0.1",
    "example.com",
    "1.2.3.4",
    ":::",
    "1:2:3:4:5:6:7:8::",
  ])("refuses %s", (text) => {
    expect(parseIpv6(text)).toBeUndefined();
  });
});

describe("classifyAddress", () => {
  it.each([
    ["8.8.8.8", "public"],
    ["127.0.0.1", "loopback"],
    ["10.255.0.1", "private"],
    ["172.15.255.255", "public"],
    ["172.16.0.0", "private"],
    ["172.32.0.0", "public"],
    ["100.63.255.255", "public"],
    ["100.64.0.0", "cgnat"],
    ["100.128.0.0", "public"],
    ["169.254.169.254", "metadata"],
    ["100.100.100.200", "metadata"],
    ["169.254.0.1", "link-local"],
    ["239.255.255.255", "multicast"],
    ["255.255.255.255", "broadcast"],
    ["255.255.255.254", "reserved"],
    ["198.19.255.255", "benchmarking"],
    ["0.1.2.3", "unspecified"],
    ["::1", "loopback"],
    ["::", "unspecified"],
    ["fd00:ec2::254", "metadata"],
    ["fc00::", "unique-local"],
    ["febf::1", "link-local"],
    ["ff05::2", "multicast"],
    ["2001:db8::", "documentation"],
    ["2606:4700::1", "public"],
    ["::ffff:8.8.8.8", "ipv4-mapped"],
    ["::ffff:192.168.0.1", "private"],
    ["::8.8.8.8", "reserved"],
    ["64:ff9b::169.254.169.254", "metadata"],
    ["2002:c0a8:1::", "private"],
    ["2002:0808:0808::", "public"],
    ["2001:0:4136:e378:8000:63bf:3f57:fdf2", "private"],
    ["2001:0:4136:e378:8000:63bf:f7f7:f7f7", "public"],
  ])("classifies %s as %s", (text, expected) => {
    expect(classifyAddress(text)?.class).toBe(expected);
  });

  it("reports the IPv4 address inside an IPv6 form", () => {
    expect(classifyAddress("::ffff:a9fe:a9fe")).toMatchObject({
      address: "::ffff:a9fe:a9fe",
      family: 6,
      class: "metadata",
      embedded: { via: "ipv4-mapped", ipv4: "169.254.169.254" },
    });
    expect(classifyAddress("2001:0:4136:e378:8000:63bf:80ff:fffe")).toMatchObject({
      class: "loopback",
      embedded: { via: "teredo", ipv4: "127.0.0.1" },
    });
  });

  it("is undefined for names", () => {
    expect(classifyAddress("example.com")).toBeUndefined();
  });
});

describe("normaliseHostname", () => {
  it("lower-cases, punycodes and drops trailing dots", () => {
    expect(normaliseHostname("Bücher.Example..")).toBe("xn--bcher-kva.example");
    expect(normaliseHostname("METADATA.GOOGLE.INTERNAL.")).toBe("metadata.google.internal");
  });
});

describe("preflightUrl and checkUrl messages", () => {
  it("names the address and its class", async () => {
    const result = await checkUrl("http://0x7f.1:8080/x");
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe("E_NETWORK_BLOCKED");
      expect(result.error.message).toContain("127.0.0.1 is a loopback address (127.0.0.0/8)");
    }
  });

  it("names the resolved address that failed", async () => {
    const result = await checkUrl("http://mixed.example/", {
      resolve: async () => [
        { address: "93.184.215.14", family: 4 },
        { address: "10.1.2.3", family: 4 },
      ],
    });
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.error.message).toContain("resolves to 10.1.2.3; 10.1.2.3 is a private-network address");
  });

  it("keeps credentials out of the message", () => {
    const result = preflightUrl("https://alice:hunter2@example.com/");
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.message).not.toContain("hunter2");
      expect(result.error.message).toContain("credentials");
    }
  });

  it("answers E_INVALID_ARGS for text that is not a URL", () => {
    const result = preflightUrl("not a url");
    expect(result.ok ? undefined : result.error.code).toBe("E_INVALID_ARGS");
  });

  it("reports resolver failures as execution errors, not as blocks", async () => {
    const result = await checkUrl("https://nowhere.example/", {
      resolve: async () => {
        throw new Error("getaddrinfo ENOTFOUND nowhere.example");
      },
    });
    expect(result.ok ? undefined : result.error.code).toBe("E_TOOL_EXECUTION");
  });
});

describe("pinnedLookup", () => {
  const checked = [
    classifyAddress("93.184.215.14"),
    classifyAddress("2606:2800:21f:cb07:6820:80da:af6b:8b2c"),
  ].filter((address) => address !== undefined);

  it("answers with the checked addresses only, in both callback shapes", async () => {
    const lookup = pinnedLookup("example.com", checked);
    const all = await new Promise((resolve) =>
      lookup("example.com", { all: true }, (error, addresses) => resolve({ error, addresses })),
    );
    expect(all).toEqual({
      error: null,
      addresses: [
        { address: "93.184.215.14", family: 4 },
        { address: "2606:2800:21f:cb07:6820:80da:af6b:8b2c", family: 6 },
      ],
    });
    const one = await new Promise((resolve) =>
      lookup("example.com", { family: 6 }, (error, address, family) => resolve({ error, address, family })),
    );
    expect(one).toEqual({ error: null, address: "2606:2800:21f:cb07:6820:80da:af6b:8b2c", family: 6 });
  });

  it("refuses any other name", async () => {
    const lookup = pinnedLookup("example.com", checked);
    const code = await new Promise((resolve) => lookup("evil.example", {}, (error) => resolve(error?.code)));
    expect(code).toBe("ENOTFOUND");
  });
});
