// The words of a page's game-change announcements (issue 36: version, map, wipe), every language in one file: each
// catalogue takes its own with `...GAME_CHANGE_WORDS.xx` (English's keys are the reference, as for the rest of en.ts).
import type { PageLanguage } from '../../../domain/languages.js';

const en = {
  // The section's heading on the HTML page and in Markdown.
  'gameChanges.title': 'Server changes',
  // One change: `components` are the names of the components showing the server, joined by commas.
  'gameChanges.version': 'Version changed to {to} on {components}',
  'gameChanges.map': 'Map changed to {to} on {components}',
  'gameChanges.wipe': '{components} was wiped',
  // A change's earlier value, after it.
  'gameChanges.was': 'was {from}',
} as const;

type GameChangeWords = Record<keyof typeof en, string>;

export const GAME_CHANGE_WORDS: { en: typeof en } & Record<Exclude<PageLanguage, 'en'>, GameChangeWords> = {
  en,
  de: {
    'gameChanges.title': 'Server-Änderungen',
    'gameChanges.version': 'Version auf {to} geändert auf {components}',
    'gameChanges.map': 'Karte auf {to} geändert auf {components}',
    'gameChanges.wipe': '{components} wurde gewipt',
    'gameChanges.was': 'vorher {from}',
  },
  fr: {
    'gameChanges.title': 'Changements des serveurs',
    'gameChanges.version': 'Version passée à {to} sur {components}',
    'gameChanges.map': 'Carte passée à {to} sur {components}',
    'gameChanges.wipe': '{components} a été wipé',
    'gameChanges.was': 'avant : {from}',
  },
  es: {
    'gameChanges.title': 'Cambios en los servidores',
    'gameChanges.version': 'Versión cambiada a {to} en {components}',
    'gameChanges.map': 'Mapa cambiado a {to} en {components}',
    'gameChanges.wipe': '{components} se ha reiniciado (wipe)',
    'gameChanges.was': 'antes {from}',
  },
  'pt-BR': {
    'gameChanges.title': 'Mudanças nos servidores',
    'gameChanges.version': 'Versão alterada para {to} em {components}',
    'gameChanges.map': 'Mapa alterado para {to} em {components}',
    'gameChanges.wipe': '{components} passou por wipe',
    'gameChanges.was': 'antes {from}',
  },
  pl: {
    'gameChanges.title': 'Zmiany na serwerach',
    'gameChanges.version': 'Wersja zmieniona na {to} na {components}',
    'gameChanges.map': 'Mapa zmieniona na {to} na {components}',
    'gameChanges.wipe': '{components}: wipe serwera',
    'gameChanges.was': 'wcześniej {from}',
  },
  ru: {
    'gameChanges.title': 'Изменения на серверах',
    'gameChanges.version': 'Версия изменена на {to}: {components}',
    'gameChanges.map': 'Карта изменена на {to}: {components}',
    'gameChanges.wipe': '{components}: вайп',
    'gameChanges.was': 'было {from}',
  },
  tr: {
    'gameChanges.title': 'Sunucu değişiklikleri',
    'gameChanges.version': '{components}: sürüm {to} oldu',
    'gameChanges.map': '{components}: harita {to} oldu',
    'gameChanges.wipe': '{components} wipe edildi',
    'gameChanges.was': 'önceki: {from}',
  },
};
