// A push monitor's new token, shown this once, with copy-ready ways to send heartbeats (docs/push.md): curl, a cron
// line, a Minecraft (Paper) plugin in Java and a Rust (Oxide) plugin in C#.
import { Alert, Button, Code, CopyButton, Group, Stack, Tabs, Text, TextInput } from '@mantine/core';
import { READABLE_TITLE } from '../monitor-form/test-result';

export function pushUrl(token: string): string {
  return `${window.location.origin}/api/push/${token}`;
}

export function pushSnippets(url: string): { id: string; label: string; code: string }[] {
  return [
    {
      id: 'curl',
      label: 'curl',
      code: `# an up ping with a message and the time it took (ms)
curl -fsS "${url}?msg=backup%20ok&latency=812"

# with players, as a game server reports them
curl -fsS -X POST "${url}" \\
  -H 'content-type: application/json' \\
  -d '{"status":"up","players":31,"maxPlayers":64}'

# something broke: down at once, msg is the reason
curl -fsS "${url}?status=down&msg=disk%20full"`,
    },
    {
      id: 'cron',
      label: 'cron',
      code: `# every minute; the monitor goes down when no ping comes within its grace period
* * * * * curl -fsS -m 10 "${url}" > /dev/null`,
    },
    {
      id: 'minecraft',
      label: 'Minecraft (Java)',
      code: `// Paper/Spigot plugin, in onEnable(): players every minute (1200 ticks), sent without blocking the server
// imports: java.net.URI, java.net.http.HttpClient, java.net.http.HttpRequest, java.net.http.HttpResponse
HttpClient http = HttpClient.newHttpClient();
Bukkit.getScheduler().runTaskTimer(this, () -> {
    String body = String.format("{\\"players\\":%d,\\"maxPlayers\\":%d}",
        Bukkit.getOnlinePlayers().size(), Bukkit.getMaxPlayers());
    http.sendAsync(HttpRequest.newBuilder(URI.create("${url}"))
            .header("content-type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.discarding());
}, 0L, 1200L);`,
    },
    {
      id: 'rust',
      label: 'Rust (Oxide C#)',
      code: `// Oxide/uMod plugin for Rust: players every minute
// usings: System.Collections.Generic, Oxide.Core.Libraries (RequestMethod)
void OnServerInitialized()
{
    timer.Every(60f, () =>
    {
        var body = $"{{\\"players\\":{BasePlayer.activePlayerList.Count},\\"maxPlayers\\":{ConVar.Server.maxplayers}}}";
        webrequest.Enqueue("${url}", body, (code, response) => { }, this, RequestMethod.POST,
            new Dictionary<string, string> { ["Content-Type"] = "application/json" });
    });
}`,
    },
  ];
}

/** The token in a copyable field with the "shown once" note, and the snippets that use it. */
export function PushTokenPanel({ token }: { token: string }) {
  const url = pushUrl(token);
  return (
    <Stack gap="sm">
      <Alert color="yellow" variant="light" title="Copy the push token now" styles={READABLE_TITLE}>
        <Text size="sm">
          It is shown this once: Warden keeps only its hash. Issue a new one from the monitor if it is lost (the old one
          then stops working).
        </Text>
      </Alert>
      <Group align="flex-end" gap="xs" wrap="nowrap">
        <TextInput
          label="Push URL"
          value={url}
          readOnly
          flex={1}
          onFocus={(e) => e.currentTarget.select()}
          styles={{ input: { fontFamily: 'monospace' } }}
        />
        <Copy value={url} label="Copy URL" />
      </Group>
      <Tabs defaultValue="curl" keepMounted={false}>
        <Tabs.List aria-label="Ways to send heartbeats">
          {pushSnippets(url).map((s) => (
            <Tabs.Tab key={s.id} value={s.id}>
              {s.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {pushSnippets(url).map((s) => (
          <Tabs.Panel key={s.id} value={s.id} pt="xs">
            <Stack gap={4} align="flex-start">
              <Code
                block
                w="100%"
                style={{ whiteSpace: 'pre', overflowX: 'auto' }}
                tabIndex={0}
                aria-label={`${s.label} example`}
              >
                {s.code}
              </Code>
              <Copy value={s.code} label={`Copy the ${s.label} example`} />
            </Stack>
          </Tabs.Panel>
        ))}
      </Tabs>
    </Stack>
  );
}

function Copy({ value, label }: { value: string; label: string }) {
  return (
    <CopyButton value={value}>
      {({ copied, copy }) => (
        <Button size="sm" variant="default" onClick={copy}>
          {copied ? 'Copied' : label}
        </Button>
      )}
    </CopyButton>
  );
}
