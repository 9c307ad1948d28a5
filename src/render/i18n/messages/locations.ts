// The words of a component's response time per place (a monitor checked from several places, docs/monitors.md
// "Several locations"), every language in one file: each catalogue takes its own with `...LOCATION_WORDS.xx`.
import type { PageLanguage } from '../../../domain/languages.js';

const en = {
  'page.chart.locationsTitle': 'Response time by location',
  // Warden itself, where it checks from (the edge), beside the relays' names.
  'page.chart.locationHere': 'Main',
  // {places} lists each place and its average ("Main 12 ms, Frankfurt 40 ms").
  'page.chart.locationsLabel': 'Average response time by location over {window}: {places}',
  'page.chart.locationAverage': '{place} {value}',
  'page.chart.locationNoData': '{place} no data',
} as const;

type LocationWords = Record<keyof typeof en, string>;

export const LOCATION_WORDS: { en: typeof en } & Record<Exclude<PageLanguage, 'en'>, LocationWords> = {
  en,
  de: {
    'page.chart.locationsTitle': 'Antwortzeit nach Standort',
    'page.chart.locationHere': 'Hauptstandort',
    'page.chart.locationsLabel': 'Durchschnittliche Antwortzeit nach Standort über {window}: {places}',
    'page.chart.locationAverage': '{place} {value}',
    'page.chart.locationNoData': '{place} keine Daten',
  },
  fr: {
    'page.chart.locationsTitle': 'Temps de réponse par site',
    'page.chart.locationHere': 'Principal',
    'page.chart.locationsLabel': 'Temps de réponse moyen par site sur {window} : {places}',
    'page.chart.locationAverage': '{place} {value}',
    'page.chart.locationNoData': '{place} sans données',
  },
  es: {
    'page.chart.locationsTitle': 'Tiempo de respuesta por ubicación',
    'page.chart.locationHere': 'Principal',
    'page.chart.locationsLabel': 'Tiempo de respuesta medio por ubicación en {window}: {places}',
    'page.chart.locationAverage': '{place} {value}',
    'page.chart.locationNoData': '{place} sin datos',
  },
  'pt-BR': {
    'page.chart.locationsTitle': 'Tempo de resposta por local',
    'page.chart.locationHere': 'Principal',
    'page.chart.locationsLabel': 'Tempo de resposta médio por local em {window}: {places}',
    'page.chart.locationAverage': '{place} {value}',
    'page.chart.locationNoData': '{place} sem dados',
  },
  pl: {
    'page.chart.locationsTitle': 'Czas odpowiedzi według lokalizacji',
    'page.chart.locationHere': 'Główna',
    'page.chart.locationsLabel': 'Średni czas odpowiedzi według lokalizacji w ciągu {window}: {places}',
    'page.chart.locationAverage': '{place} {value}',
    'page.chart.locationNoData': '{place} brak danych',
  },
  ru: {
    'page.chart.locationsTitle': 'Время ответа по местам',
    'page.chart.locationHere': 'Основное',
    'page.chart.locationsLabel': 'Среднее время ответа по местам за {window}: {places}',
    'page.chart.locationAverage': '{place} {value}',
    'page.chart.locationNoData': '{place} нет данных',
  },
  tr: {
    'page.chart.locationsTitle': 'Konuma göre yanıt süresi',
    'page.chart.locationHere': 'Ana',
    'page.chart.locationsLabel': 'Son {window} konuma göre ortalama yanıt süresi: {places}',
    'page.chart.locationAverage': '{place} {value}',
    'page.chart.locationNoData': '{place} veri yok',
  },
};
